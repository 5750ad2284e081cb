import * as z from 'zod/mini'
import * as s from '../src/internal/schemas.ts'
const a = z.object({ taskId: s.uint(53), cid: s.cid })
console.log(JSON.stringify(a.safeParse({})))
