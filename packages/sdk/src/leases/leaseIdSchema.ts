import * as z from 'zod/mini'
import * as s from '../internal/schemas.js'

/** The parameters of an action on one lease and nothing else. */
export const leaseIdSchema = /* @__PURE__ */ z.object({ leaseId: s.leaseId })
