import { useSyncExternalStore } from 'react'
import type { Address } from 'viem'

/** The dashboard's pages: `#/` (overview), `#/tasks/<id>`, `#/leases/<id>` and `#/providers/<address>`. */
export type Route =
  | { page: 'overview' }
  | { page: 'task'; taskId: bigint }
  | { page: 'lease'; leaseId: bigint }
  | { page: 'provider'; provider: Address }

const taskPath = /^#\/tasks\/(\d+)\/?$/
const leasePath = /^#\/leases\/(\d+)\/?$/
const providerPath = /^#\/providers\/(0x[0-9a-fA-F]{40})\/?$/

/** The page a location hash names; anything unknown is the overview. */
export function parseRoute(hash: string): Route {
  const task = taskPath.exec(hash)?.[1]
  if (task !== undefined) return { page: 'task', taskId: BigInt(task) }
  const lease = leasePath.exec(hash)?.[1]
  if (lease !== undefined) return { page: 'lease', leaseId: BigInt(lease) }
  const provider = providerPath.exec(hash)?.[1]
  if (provider !== undefined) return { page: 'provider', provider: provider as Address }
  return { page: 'overview' }
}

/** The href of a task's page. */
export function taskHref(taskId: bigint): string {
  return `#/tasks/${taskId}`
}

/** The href of a lease's page. */
export function leaseHref(leaseId: bigint): string {
  return `#/leases/${leaseId}`
}

/** The href of a provider's page. */
export function providerHref(provider: Address): string {
  return `#/providers/${provider}`
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
