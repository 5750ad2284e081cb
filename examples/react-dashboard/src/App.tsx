import { Header } from './components/Header'
import { LeasePage } from './components/LeasePage'
import { Overview } from './components/Overview'
import { PageErrorBoundary } from './components/PageErrorBoundary'
import { ProviderPage } from './components/ProviderPage'
import { TaskPage } from './components/TaskPage'
import { useRoute } from './route'

export function App() {
  const route = useRoute()
  const page =
    route.page === 'task'
      ? `task-${route.taskId}`
      : route.page === 'lease'
        ? `lease-${route.leaseId}`
        : route.page === 'provider'
          ? `provider-${route.provider}`
          : 'overview'
  return (
    <>
      <Header />
      <main>
        {/* Keyed by page: a failed page is retried when another one is opened. */}
        <PageErrorBoundary key={page}>
          {route.page === 'task' ? (
            <TaskPage taskId={route.taskId} />
          ) : route.page === 'lease' ? (
            <LeasePage leaseId={route.leaseId} />
          ) : route.page === 'provider' ? (
            <ProviderPage provider={route.provider} />
          ) : (
            <Overview />
          )}
        </PageErrorBoundary>
      </main>
    </>
  )
}
