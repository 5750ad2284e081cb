import { useSyncExternalStore } from 'react'

/** The dashboard's pages: `#/` (overview), `#/tasks/<id>` and `#/leases/<id>`. */
export type Route =
  | { page: 'overview' }
  | { page: 'task'; taskId: bigint }
  | { page: 'lease'; leaseId: bigint }

const taskPath = /^#\/tasks\/(\d+)\/?$/
const leasePath = /^#\/leases\/(\d+)\/?$/

/** The page a location hash names; anything unknown is the overview. */
export function parseRoute(hash: string): Route {
  const task = taskPath.exec(hash)?.[1]
  if (task !== undefined) return { page: 'task', taskId: BigInt(task) }
  const lease = leasePath.exec(hash)?.[1]
  if (lease !== undefined) return { page: 'lease', leaseId: BigInt(lease) }
  return { page: 'overview' }
}

/** The href of a task's page. */
export function taskHref(taskId: bigint): string {
  return `#/tasks/${taskId}`
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener('hashchange', onChange)
  return () => window.removeEventListener('hashchange', onChange)
}

/** The current page, updated on every hash change (no router library). */
export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash)
  return parseRoute(hash)
}
