import { leaseMarketAbi } from '@gridforge/contracts'
import type { QueryClient } from '@tanstack/query-core'
import type { Config } from '@wagmi/core'
import type { AbiEvent } from 'viem'
import { watchBlockNumber, watchEvent } from 'viem/actions'
import {
  type ChainParameters,
  gridforgeQueryKeyPrefix,
  readClient,
  requireDeployment,
  resolveChain,
} from './utils.js'

/** Every event of the lease market: each names its lease in an indexed `leaseId`. */
const leaseEvents = leaseMarketAbi.filter((item): item is AbiEvent & typeof item => item.type === 'event')

export type WatchLeaseQueriesParameters = ChainParameters & {
  leaseId: number | bigint
  /** Milliseconds between polls over HTTP (default: the client's `pollingInterval`); WebSocket transports subscribe. */
  pollingInterval?: number | undefined
  /** Also refetch the cost meter on every new block (default true): it moves with the chain's clock. */
  everyBlock?: boolean | undefined
  /** Called when watching fails; the watch goes on. */
  onError?: ((error: Error) => void) | undefined
}

/**
 * Keeps one lease's queries fresh: on every lease market event of the lease
 * (accepted, topped up, extended, usage redeemed, notice, offline report,
 * ended, settled) its `lease` and `leaseCost` queries and the lease lists are
 * invalidated, and on every new block its `leaseCost` (the meter moves with
 * time). One log watch and one block watch on the node. Returns `unwatch`.
 *
 * @example
 * import { watchLeaseQueries } from '@gridforge/react-hooks/query'
 *
 * const unwatch = watchLeaseQueries(config, queryClient, { leaseId: 7n })
 */
export function watchLeaseQueries(
  config: Config,
  queryClient: QueryClient,
  parameters: WatchLeaseQueriesParameters,
): () => void {
  const chain = resolveChain(config, parameters)
  const deployment = requireDeployment(chain)
  const leaseId = BigInt(parameters.leaseId)
  const scope = { chainId: chain.chainId, market: deployment.contracts.market, leaseId }
  const client = readClient(config, chain.chainId)
  const invalidate = (names: readonly string[], withScope = true) => {
    for (const name of names)
      void queryClient.invalidateQueries({
        queryKey: withScope ? [gridforgeQueryKeyPrefix, name, scope] : [gridforgeQueryKeyPrefix, name],
      })
  }
  // Not filtered on the node: a topic filter needs one event name, and a lease has ten. One lease's events are few.
  const unwatchEvents = watchEvent(client, {
    address: deployment.contracts.leases,
    events: leaseEvents,
    pollingInterval: parameters.pollingInterval,
    onError: parameters.onError,
    onLogs: (logs) => {
      if (!logs.some((log) => (log.args as { leaseId?: bigint }).leaseId === leaseId)) return
      invalidate(['lease', 'leaseCost'])
      invalidate(['leases', 'walletBalance'], false)
    },
  })
  const unwatchBlocks =
    parameters.everyBlock === false
      ? () => {}
      : watchBlockNumber(client, {
          pollingInterval: parameters.pollingInterval,
          onError: parameters.onError,
          onBlockNumber: () => invalidate(['leaseCost']),
        })
  return () => {
    unwatchEvents()
    unwatchBlocks()
  }
}
