import { isFinalStatus, type Task, watchTask, watchTasks } from '@gridforge/sdk'
import type { QueryClient } from '@tanstack/query-core'
import type { Config } from '@wagmi/core'
import type { Address } from 'viem'
import {
  type ChainParameters,
  gridforgeQueryKeyPrefix,
  readClient,
  requireDeployment,
  resolveChain,
} from './utils.js'

/** The queries a settlement moves besides the task itself: balances (refunds, payments), stake and rewards (fees), network figures. */
const settlementInvalidates = ['walletBalance', 'stake', 'rewards', 'networkStats'] as const

export type WatchTaskQueriesParameters = ChainParameters & {
  taskId: number | bigint
  /** Milliseconds between polls over HTTP (default: the client's `pollingInterval`); WebSocket transports subscribe. */
  pollingInterval?: number | undefined
  /** Called when watching fails; the watch goes on. */
  onError?: ((error: Error) => void) | undefined
}

/**
 * Keeps one task's queries fresh: on every market event of the task (claim,
 * seat replaced, result, commitment, reveal, reopened slot, audit or dispute
 * step, settlement) its `task` and `receipt` queries and the task lists are
 * invalidated; a settlement also
 * invalidates balances, stake, rewards and network stats. One log watch on
 * the node (SDK `watchTask`), and one refetch shortly after it starts to
 * cover the moment before the node's filter existed. Returns `unwatch`.
 *
 * @example
 * import { watchTaskQueries } from '@gridforge/react-hooks/query'
 *
 * const unwatch = watchTaskQueries(config, queryClient, { taskId: 7n })
 */
export function watchTaskQueries(
  config: Config,
  queryClient: QueryClient,
  parameters: WatchTaskQueriesParameters,
): () => void {
  const chain = resolveChain(config, parameters)
  const taskId = BigInt(parameters.taskId)
  const scope = { chainId: chain.chainId, market: chain.deployment?.contracts.market, taskId }
  const client = readClient(config, chain.chainId)
  const unwatch = watchTask(client, {
    deployment: requireDeployment(chain),
    taskId,
    pollingInterval: parameters.pollingInterval,
    onError: parameters.onError,
    onEvent: (event) => {
      invalidate(queryClient, ['task', 'receipt'], scope)
      invalidate(queryClient, ['tasks'])
      if (event.eventName === 'TaskFinalized') invalidate(queryClient, settlementInvalidates)
    },
  })
  return withCatchUp(unwatch, parameters.pollingInterval ?? client.pollingInterval, () =>
    invalidate(queryClient, ['task', 'receipt'], scope),
  )
}

export type WatchTasksQueriesParameters = ChainParameters & {
  /** Only tasks of this client. */
  client?: Address | undefined
  /** Only tasks this provider claims. */
  provider?: Address | undefined
  /** Only tasks of this source. */
  sourceId?: number | bigint | undefined
  pollingInterval?: number | undefined
  onError?: ((error: Error) => void) | undefined
}

/**
 * Keeps task lists fresh: a submission, claim or settlement matching the
 * filter invalidates the `tasks` queries and that task's `task` query; a
 * settlement also balances, stake, rewards and network stats. Intermediate
 * steps of replicated tasks (commitments, reveals) are not watched here — a
 * task page uses `watchTaskQueries`. Returns `unwatch`.
 *
 * @example
 * import { watchTasksQueries } from '@gridforge/react-hooks/query'
 *
 * const unwatch = watchTasksQueries(config, queryClient, { client: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' })
 */
export function watchTasksQueries(
  config: Config,
  queryClient: QueryClient,
  parameters: WatchTasksQueriesParameters = {},
): () => void {
  const chain = resolveChain(config, parameters)
  const market = chain.deployment?.contracts.market
  const changed = ({ taskId }: { taskId: bigint }) => {
    invalidate(queryClient, ['tasks'])
    invalidate(queryClient, ['task'], { chainId: chain.chainId, market, taskId })
  }
  const client = readClient(config, chain.chainId)
  const unwatch = watchTasks(client, {
    deployment: requireDeployment(chain),
    client: parameters.client,
    provider: parameters.provider,
    sourceId: parameters.sourceId,
    pollingInterval: parameters.pollingInterval,
    onError: parameters.onError,
    onSubmitted: changed,
    onClaimed: changed,
    onSettled: (event) => {
      changed(event)
      invalidate(queryClient, settlementInvalidates)
    },
  })
  return withCatchUp(unwatch, parameters.pollingInterval ?? client.pollingInterval, () =>
    invalidate(queryClient, ['tasks']),
  )
}

/**
 * Invalidates what a settlement moves besides the task: balances, stake,
 * rewards and network stats. For a view that saw a task settle some other way
 * than through a watch's TaskFinalized event (it stops watching then).
 */
export function invalidateSettlement(queryClient: QueryClient): void {
  invalidate(queryClient, settlementInvalidates)
}

/** Whether a cached task is settled for good (nothing more to watch). */
export function isSettled(task: Task | undefined): boolean {
  return task !== undefined && isFinalStatus(task.status)
}

/**
 * A log watch only sees what happens after the node installed its filter (on
 * the watch's first poll), while the query may have read the chain a moment
 * before: an event in between would go unseen until the next one. So the
 * queries are refetched once more, two polling intervals after the watch
 * started — by then the filter is installed and has been polled.
 */
function withCatchUp(unwatch: () => void, pollingInterval: number, refetch: () => void): () => void {
  const timer = setTimeout(refetch, 2 * pollingInterval)
  return () => {
    clearTimeout(timer)
    unwatch()
  }
}

function invalidate(queryClient: QueryClient, names: readonly string[], scope?: Record<string, unknown>) {
  for (const name of names)
    void queryClient.invalidateQueries({
      queryKey:
        scope === undefined ? [gridforgeQueryKeyPrefix, name] : [gridforgeQueryKeyPrefix, name, scope],
    })
}
