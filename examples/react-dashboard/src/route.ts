import { useSyncExternalStore } from 'react'

/** The dashboard's pages: `#/` (overview) and `#/tasks/<id>`. */
export type Route = { page: 'overview' } | { page: 'task'; taskId: bigint }

const taskPath = /^#\/tasks\/(\d+)\/?$/

/** The page a location hash names; anything unknown is the overview. */
export function parseRoute(hash: string): Route {
  const match = taskPath.exec(hash)
  return match?.[1] === undefined ? { page: 'overview' } : { page: 'task', taskId: BigInt(match[1]) }
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
