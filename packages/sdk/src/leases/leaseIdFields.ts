import * as s from '../internal/schemas.js'

/**
 * The fields of an action on one lease and nothing else (field by field, not
 * `z.object`: see `validateFields`, which keeps browser bundles small).
 */
export const leaseIdFields = { leaseId: s.leaseId }
