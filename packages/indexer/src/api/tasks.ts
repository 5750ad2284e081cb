/** GET /tasks and GET /tasks/{id}. */
import { db } from 'ponder:api'
import * as schema from 'ponder:schema'
import { and, asc, desc, eq, exists, inArray, lt } from 'ponder'
import { NotFoundError } from './errors.js'
import { taskDetail, taskSummary } from './json.js'
import {
  addressQuery,
  cursor,
  encodeCursor,
  limit,
  oneOrMoreOf,
  type ParameterValues,
  sourceIdQuery,
  taskIdPath,
} from './parameters.js'

/** A condition of a WHERE clause. */
type Filter = NonNullable<Parameters<typeof and>[number]>

export const listTasksParameters = {
  client: addressQuery('Only tasks submitted by this client.'),
  provider: addressQuery(
    'Only tasks in which this provider holds or held a slot (a replica’s or an auditor’s).',
  ),
  source: sourceIdQuery('Only tasks of this source.'),
  status: oneOrMoreOf('Only tasks in one of these statuses (comma-separated).', schema.taskStatus.enumValues),
  limit,
  cursor: cursor('tasks', /^[1-9][0-9]*$/),
}

/** Tasks, newest first (by id), filtered; a page of `limit` and the cursor of the next. */
export async function listTasks(parameters: ParameterValues<typeof listTasksParameters>) {
  const { task, claim } = schema
  const filters: Filter[] = []
  if (parameters.client !== undefined) filters.push(eq(task.client, parameters.client))
  if (parameters.source !== undefined) filters.push(eq(task.sourceId, parameters.source))
  if (parameters.status !== undefined) filters.push(inArray(task.status, parameters.status))
  if (parameters.provider !== undefined)
    filters.push(
      exists(
        db
          .select({ taskId: claim.taskId })
          .from(claim)
          .where(and(eq(claim.provider, parameters.provider), eq(claim.taskId, task.id))),
      ),
    )
  if (parameters.cursor !== undefined) filters.push(lt(task.id, BigInt(parameters.cursor)))
  const rows = await db
    .select()
    .from(task)
    .where(and(...filters))
    .orderBy(desc(task.id))
    .limit(parameters.limit + 1)
  const page = rows.slice(0, parameters.limit)
  const last = page.at(-1)
  return {
    items: page.map(taskSummary),
    nextCursor:
      rows.length > parameters.limit && last !== undefined ? encodeCursor('tasks', last.id.toString()) : null,
  }
}

export const getTaskParameters = { id: taskIdPath('The task id.') }

/** One task with its slots (claims in chain order), payments, slashes and audit rounds. */
export async function getTask({ id }: ParameterValues<typeof getTaskParameters>) {
  const [row] = await db.select().from(schema.task).where(eq(schema.task.id, id))
  if (row === undefined) throw new NotFoundError('id', `no task ${id} (not submitted, or not indexed yet)`)
  const [claims, payments, slashes, rounds] = await Promise.all([
    db
      .select()
      .from(schema.claim)
      .where(eq(schema.claim.taskId, id))
      .orderBy(asc(schema.claim.slot), asc(schema.claim.id)),
    db.select().from(schema.payment).where(eq(schema.payment.taskId, id)).orderBy(asc(schema.payment.id)),
    db.select().from(schema.slash).where(eq(schema.slash.taskId, id)).orderBy(asc(schema.slash.id)),
    db
      .select()
      .from(schema.auditRound)
      .where(eq(schema.auditRound.taskId, id))
      .orderBy(asc(schema.auditRound.round)),
  ])
  return taskDetail(row, { claims, payments, slashes, rounds })
}
