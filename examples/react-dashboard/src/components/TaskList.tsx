import { useTasks } from '@gridforge/react-hooks'
import { useState } from 'react'
import { useConnection } from 'wagmi'
import { ErrorAlert } from './ErrorAlert'
import { Panel } from './Panel'
import { TaskRow } from './TaskRow'

/**
 * Tasks, newest first, live: the list refetches on every submission, claim and settlement.
 * The connected account's own tasks by default; every task when none is connected.
 */
export function TaskList() {
  const { address } = useConnection()
  const [everyone, setEveryone] = useState(false)
  const client = everyone ? undefined : address
  const tasks = useTasks({ client })
  const newestFirst = tasks.data === undefined ? undefined : [...tasks.data].reverse()

  return (
    <Panel title={client === undefined ? 'All tasks' : 'Your tasks'} testId="task-list">
      {address !== undefined && (
        <label className="toggle">
          <input type="checkbox" checked={everyone} onChange={(event) => setEveryone(event.target.checked)} />
          Show every client's tasks
        </label>
      )}
      <ErrorAlert error={tasks.error} />
      {tasks.isPending && !tasks.isError && <p className="muted">Loading tasks…</p>}
      {newestFirst?.length === 0 && <p className="muted">No tasks yet.</p>}
      {newestFirst !== undefined && newestFirst.length > 0 && (
        <div className="task-table">
          <div className="task-row task-head">
            <span>Task</span>
            <span>Status</span>
            <span>Source</span>
            <span>Replicas</span>
            <span>Max payment</span>
            <span>Deadline</span>
          </div>
          {newestFirst.map((task) => (
            <TaskRow key={String(task.taskId)} task={task} />
          ))}
        </div>
      )}
    </Panel>
  )
}
