import { useTask } from '@gridforge/react-hooks'
import { formatFailure } from '@gridforge/sdk'
import { formatGrid } from '../amount'
import { ErrorAlert } from './ErrorAlert'
import { Panel } from './Panel'
import { SourceLabel } from './SourceLabel'
import { TaskAudit } from './TaskAudit'
import { TaskReceipts } from './TaskReceipts'
import { TaskSlots } from './TaskSlots'
import { TaskStatusBadge } from './TaskStatusBadge'

/**
 * `#/tasks/<id>`: a task, live, with its slots, its audit (an auditable task) or dispute (replicas
 * whose results differ) and, once settled, its verified receipts, output and logs.
 */
export function TaskPage({ taskId }: { taskId: bigint }) {
  const task = useTask({ taskId, includeInput: true })
  const data = task.data
  const settled = data?.status === 'Completed' || data?.status === 'Failed'

  return (
    <div className="task-page" data-testid="task-page">
      <p>
        <a href="#/">← Overview</a>
      </p>
      <Panel title={`Task ${taskId}`}>
        <ErrorAlert error={task.error} />
        {task.isPending && !task.isError && <p className="muted">Loading…</p>}
        {data && (
          <>
            <dl className="facts">
              <dt>Status</dt>
              <dd>
                <TaskStatusBadge status={data.status} testId="task-status" />
              </dd>
              {data.failed && (
                <>
                  <dt>Failed run</dt>
                  <dd data-testid="task-failure">
                    {data.failure === undefined ? 'yes' : formatFailure(data.failure)}
                    <span className="muted"> · its result is the run's logs</span>
                  </dd>
                </>
              )}
              <dt>Client</dt>
              <dd>
                <code>{data.client}</code>
              </dd>
              <dt>Source</dt>
              <dd>
                <SourceLabel sourceId={data.sourceId} />
              </dd>
              <dt>Input</dt>
              <dd>
                <code>{data.inputCID ?? '–'}</code>
              </dd>
              <dt>Replicas</dt>
              <dd>{data.replicas}</dd>
              <dt>Max payment</dt>
              <dd>
                {formatGrid(data.maxPayment)} per replica
                {data.pricePerSecond > 0n && (
                  <span className="muted"> · {formatGrid(data.pricePerSecond)} per second</span>
                )}
              </dd>
              <dt>Collateral</dt>
              <dd>{formatGrid(data.collateral)} per claim</dd>
              <dt>Deadline</dt>
              <dd>{data.deadline.toLocaleString()}</dd>
              {data.revealDeadline && (
                <>
                  <dt>Reveals until</dt>
                  <dd>{data.revealDeadline.toLocaleString()}</dd>
                </>
              )}
              {(data.auditBps > 0 || data.audit !== undefined) && (
                <TaskAudit
                  auditBps={data.auditBps}
                  audit={data.audit}
                  status={data.status}
                  replicas={data.replicas}
                />
              )}
            </dl>
            <TaskSlots slots={data.slots} replicas={data.replicas} />
          </>
        )}
      </Panel>
      {data && settled && <TaskReceipts taskId={taskId} />}
      {(data?.status === 'Cancelled' || data?.status === 'Expired') && (
        <p className="muted">No receipt: the task was {data.status.toLowerCase()} and its escrow refunded.</p>
      )}
    </div>
  )
}
