/** GET /sources and GET /sources/{id}. */
import { db } from 'ponder:api'
import * as schema from 'ponder:schema'
import { and, desc, eq, lt } from 'ponder'
import { NotFoundError } from './errors.js'
import { sourceJson } from './json.js'
import {
  addressQuery,
  booleanQuery,
  cursor,
  encodeCursor,
  limit,
  type ParameterValues,
  sourceIdPath,
} from './parameters.js'

/** A condition of a WHERE clause. */
type Filter = NonNullable<Parameters<typeof and>[number]>

export const listSourcesParameters = {
  owner: addressQuery('Only sources this account owns now.'),
  active: booleanQuery('Only sources that take tasks (true) or that were deactivated (false).'),
  limit,
  cursor: cursor('sources', /^[1-9][0-9]*$/),
}

/** Sources, the latest published first. */
export async function listSources(parameters: ParameterValues<typeof listSourcesParameters>) {
  const { source } = schema
  const filters: Filter[] = []
  if (parameters.owner !== undefined) filters.push(eq(source.owner, parameters.owner))
  if (parameters.active !== undefined) filters.push(eq(source.active, parameters.active))
  if (parameters.cursor !== undefined) filters.push(lt(source.id, Number(parameters.cursor)))
  const rows = await db
    .select()
    .from(source)
    .where(and(...filters))
    .orderBy(desc(source.id))
    .limit(parameters.limit + 1)
  const page = rows.slice(0, parameters.limit)
  const last = page.at(-1)
  return {
    items: page.map(sourceJson),
    nextCursor:
      rows.length > parameters.limit && last !== undefined ? encodeCursor('sources', String(last.id)) : null,
  }
}

export const getSourceParameters = { id: sourceIdPath('The source id.') }

/** One source, with its tasks by status. */
export async function getSource({ id }: ParameterValues<typeof getSourceParameters>) {
  const [row] = await db.select().from(schema.source).where(eq(schema.source.id, id))
  if (row === undefined) throw new NotFoundError('id', `no source ${id} (not published, or not indexed yet)`)
  const counts = await db
    .select({ status: schema.statusCount.status, tasks: schema.statusCount.tasks })
    .from(schema.statusCount)
    .where(eq(schema.statusCount.sourceId, id))
  const json = sourceJson(row)
  return { ...json, usage: { ...json.usage, tasksByStatus: byStatus(counts) } }
}

/** Counts for every status, 0 where none. */
export function byStatus(
  counts: readonly { status: (typeof schema.taskStatus.enumValues)[number]; tasks: number }[],
) {
  const all = Object.fromEntries(schema.taskStatus.enumValues.map((status) => [status, 0])) as Record<
    (typeof schema.taskStatus.enumValues)[number],
    number
  >
  for (const { status, tasks } of counts) all[status] = Number(tasks)
  return all
}
