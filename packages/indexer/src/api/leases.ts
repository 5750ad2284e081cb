/** GET /leases and GET /leases/{id}. */
import { db } from 'ponder:api'
import * as schema from 'ponder:schema'
import { and, desc, eq, inArray, lt } from 'ponder'
import { NotFoundError } from './errors.js'
import { leaseJson } from './json.js'
import {
  addressQuery,
  cursor,
  encodeCursor,
  leaseIdPath,
  limit,
  oneOrMoreOf,
  type ParameterValues,
  sourceIdQuery,
} from './parameters.js'

/** A condition of a WHERE clause. */
type Filter = NonNullable<Parameters<typeof and>[number]>

export const listLeasesParameters = {
  renter: addressQuery('Only leases this account requested.'),
  provider: addressQuery('Only leases this provider accepted.'),
  source: sourceIdQuery('Only leases of this source.'),
  status: oneOrMoreOf(
    'Only leases in one of these statuses (comma-separated).',
    schema.leaseStatus.enumValues,
  ),
  limit,
  cursor: cursor('leases', /^[1-9][0-9]*$/),
}

/** Leases, newest first (by id), filtered; a page of `limit` and the cursor of the next. */
export async function listLeases(parameters: ParameterValues<typeof listLeasesParameters>) {
  const { lease } = schema
  const filters: Filter[] = []
  if (parameters.renter !== undefined) filters.push(eq(lease.renter, parameters.renter))
  if (parameters.provider !== undefined) filters.push(eq(lease.provider, parameters.provider))
  if (parameters.source !== undefined) filters.push(eq(lease.sourceId, parameters.source))
  if (parameters.status !== undefined) filters.push(inArray(lease.status, parameters.status))
  if (parameters.cursor !== undefined) filters.push(lt(lease.id, BigInt(parameters.cursor)))
  const rows = await db
    .select()
    .from(lease)
    .where(and(...filters))
    .orderBy(desc(lease.id))
    .limit(parameters.limit + 1)
  const page = rows.slice(0, parameters.limit)
  const last = page.at(-1)
  return {
    items: page.map(leaseJson),
    nextCursor:
      rows.length > parameters.limit && last !== undefined
        ? encodeCursor('leases', last.id.toString())
        : null,
  }
}

export const getLeaseParameters = { id: leaseIdPath('The lease id.') }

export async function getLease({ id }: ParameterValues<typeof getLeaseParameters>) {
  const [row] = await db.select().from(schema.lease).where(eq(schema.lease.id, id))
  if (row === undefined) throw new NotFoundError('id', `no lease ${id} (not requested, or not indexed yet)`)
  return leaseJson(row)
}
