import { useNetworkStats } from '@gridforge/react-hooks'
import { formatGrid } from '../amount'
import { ErrorAlert } from './ErrorAlert'
import { Stat } from './Stat'

/** Network-wide figures: tasks waiting for a provider, providers taking tasks, GRID paid out. */
export function NetworkStats() {
  const stats = useNetworkStats()
  const data = stats.data
  return (
    <section className="stats" aria-label="Network">
      <Stat label="Open tasks" testId="stat-open-tasks" value={data?.openTasks.toString()} />
      <Stat
        label="Active providers"
        testId="stat-active-providers"
        value={data?.activeProviders.toString()}
      />
      <Stat label="Total paid" testId="stat-total-paid" value={data && formatGrid(data.totalPaid)} />
      <Stat label="Tasks" value={data?.tasks.toString()} />
      <Stat label="Completed" value={data?.completedTasks.toString()} />
      <ErrorAlert error={stats.error} />
    </section>
  )
}
