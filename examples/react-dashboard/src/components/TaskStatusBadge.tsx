import type { TaskStatus } from '@gridforge/sdk'

/** A task's status, by its exact name, coloured by how it stands. */
export function TaskStatusBadge({ status, testId }: { status: TaskStatus; testId?: string | undefined }) {
  return (
    <span className={`badge badge-${status.toLowerCase()}`} data-testid={testId}>
      {status}
    </span>
  )
}
