import type { Task } from '@gridforge/sdk'
import { formatGrid } from '../amount'
import { taskHref } from '../route'
import { SourceLabel } from './SourceLabel'
import { TaskStatusBadge } from './TaskStatusBadge'

/** One task in the list; the whole row links to its page. */
export function TaskRow({ task }: { task: Task }) {
  const id = String(task.taskId)
  return (
    <a className="task-row" href={taskHref(task.taskId)} data-testid={`task-row-${id}`}>
      <span>#{id}</span>
      <span>
        <TaskStatusBadge status={task.status} testId={`task-status-${id}`} />
      </span>
      <span>
        <SourceLabel sourceId={task.sourceId} />
      </span>
      <span>{task.replicas}</span>
      <span>{formatGrid(task.maxPayment)}</span>
      <span className="muted">{task.deadline.toLocaleString()}</span>
    </a>
  )
}
