import * as z from 'zod/mini'
import * as s from '../src/internal/schemas.ts'
const a = s.address.check(z.refine((x: string) => x !== '0x0000000000000000000000000000000000000000', 'zero!'))
console.log(JSON.stringify(a.safeParse('0x0000000000000000000000000000000000000000').error?.issues))
console.log(JSON.stringify(a.safeParse('0x0000000000000000000000000000000000000001')))
console.log(JSON.stringify(a.safeParse('nope').error?.issues))
