import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { ProviderPaused, ProviderRegistered, ProviderResumed } from '../abis/providerRegistry.js'
import { TaskFinalized, TaskSubmitted, taskCount } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { IndexerParameterErrorType } from '../indexer/errors.js'
import { indexedNetworkStats } from '../indexer/stats.js'
import { type IndexerParameter, withIndexer } from '../indexer/withIndexer.js'
import { blockWindow, getLogsPaginated } from '../internal/logs.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { Deployment, DeploymentParameter } from '../types/deployment.js'
import { taskStatuses } from '../types/task.js'

export type GetNetworkStatsParameters = DeploymentParameter &
  IndexerParameter & {
    /**
     * First block to count events from, inclusive; default the deployment's
     * block (the whole history). With `fromBlock` or `toBlock` the chain's logs
     * are read, indexer or not: the indexer counts whole histories.
     */
    fromBlock?: bigint | undefined
    /** Last block to count, inclusive; default the latest (read once, so that every count is as of it). */
    toBlock?: bigint | undefined
    /**
     * Most blocks per `eth_getLogs` request. Default: the whole range in one
     * request; a range the RPC refuses is halved until it passes. Set it to your
     * RPC's limit (e.g. `2_000n`) to skip the refusals.
     */
    blockRange?: bigint | undefined
  }

/**
 * The market's activity as of `blockNumber`. Counts other than `tasks` cover
 * the events from `fromBlock` on (by default, the whole history).
 */
export interface GetNetworkStatsReturnType {
  /** Tasks ever submitted (the market's `taskCount`, the highest task id). */
  tasks: bigint
  /** Tasks submitted in the range and not settled yet. */
  openTasks: number
  /** Tasks settled in the range: the sum of the four counts below. */
  settledTasks: number
  completedTasks: number
  failedTasks: number
  cancelledTasks: number
  expiredTasks: number
  /** What the settlements in the range paid out (providers, creators and fees), in base units. */
  totalPaid: bigint
  /** Providers that registered in the range. */
  registeredProviders: number
  /** Of those, the ones not paused. */
  activeProviders: number
  /** The block the stats are as of. */
  blockNumber: bigint
}

export type GetNetworkStatsErrorType =
  | InvalidParametersErrorType
  | IndexerParameterErrorType
  | ContractRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({
  fromBlock: z.optional(z.bigint()),
  toBlock: z.optional(z.bigint()),
  blockRange: z.optional(z.bigint()),
})

/**
 * Counts the market's tasks by outcome, what settlements paid, and the
 * registered and active providers, from the market's and the provider
 * registry's events (read block range by block range), all as of one block.
 *
 * With an `indexer`, its counts (`GET /stats`) as of the last block it indexed,
 * and the chain is not read.
 *
 * @example
 * import { createPublicClient, formatUnits, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { getNetworkStats } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const stats = await getNetworkStats(client, { deployment: getDeployment(31337) })
 * console.log(`${stats.openTasks} open tasks, ${stats.activeProviders} active providers`)
 * console.log(`${formatUnits(stats.totalPaid, 18)} GRID paid as of block ${stats.blockNumber}`)
 */
export async function getNetworkStats(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetNetworkStatsParameters,
): Promise<GetNetworkStatsReturnType> {
  const action = 'getNetworkStats'
  const params = validate(action, schema, parameters)
  return withIndexer(
    action,
    parameters.indexer,
    params.fromBlock === undefined && params.toBlock === undefined,
    (indexer) => indexedNetworkStats(indexer, client.chain?.id),
    () => networkStatsFromLogs(client, parameters.deployment, params),
  )
}

/** The counts of the market's and the registry's logs in the block window. */
async function networkStatsFromLogs(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  deployment: Deployment,
  params: z.output<typeof schema>,
): Promise<GetNetworkStatsReturnType> {
  const action = 'getNetworkStats'
  const deployedAt = BigInt(deployment.blockNumber)
  // One end for every query, so that every count is as of the same block.
  const { fromBlock, toBlock: blockNumber } = await blockWindow(client, action, deployment, params)
  const range = { fromBlock, toBlock: blockNumber, blockRange: params.blockRange }
  const market = { ...range, address: deployment.contracts.market }
  const registry = { ...range, address: deployment.contracts.providers }
  // Over the whole history every task was submitted in the range, so `taskCount` counts the
  // submissions and their logs (the largest of the market's) need not be read.
  const wholeHistory = fromBlock <= deployedAt

  const [tasks, submitted, finalized, registered, paused, resumed] = await Promise.all([
    read<bigint>(client, {
      action,
      hints: {},
      address: deployment.contracts.market,
      abi: [taskCount],
      functionName: 'taskCount',
      blockNumber,
    }),
    wholeHistory ? undefined : getLogsPaginated(client, { ...market, event: TaskSubmitted }),
    getLogsPaginated(client, { ...market, event: TaskFinalized }),
    getLogsPaginated(client, { ...registry, event: ProviderRegistered }),
    getLogsPaginated(client, { ...registry, event: ProviderPaused }),
    getLogsPaginated(client, { ...registry, event: ProviderResumed }),
  ])

  const byStatus = { Completed: 0, Failed: 0, Cancelled: 0, Expired: 0 }
  let totalPaid = 0n
  for (const log of finalized) {
    const status = taskStatuses[log.args.status]
    if (status !== undefined && status in byStatus) byStatus[status as keyof typeof byStatus] += 1
    totalPaid += log.args.paid
  }
  // A task settles once (TaskFinalized is emitted once per task), after it was submitted.
  const settledIds = new Set(finalized.map((log) => log.args.taskId))
  const openTasks =
    submitted === undefined
      ? Number(tasks) - finalized.length
      : submitted.filter((log) => !settledIds.has(log.args.taskId)).length

  // Paused state is replayed from the events, not read provider by provider: two more log queries
  // over the range already being read, whatever the number of providers, where a multicall of
  // `getProvider` grows with them (viem splits it into ~1 kB calls, each returning a whole profile).
  // The replay is exact: providers never deregister, they register unpaused, and pause and resume
  // revert unless they change the state, so the last of them in (block, log index) order tells.
  const providers = new Map<Address, boolean>()
  for (const log of registered) providers.set(log.args.provider, false)
  const toggles = [...paused, ...resumed].sort((a, b) =>
    a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
  )
  for (const log of toggles) {
    if (providers.has(log.args.provider)) providers.set(log.args.provider, log.eventName === 'ProviderPaused')
  }

  return {
    tasks,
    openTasks,
    settledTasks: finalized.length,
    completedTasks: byStatus.Completed,
    failedTasks: byStatus.Failed,
    cancelledTasks: byStatus.Cancelled,
    expiredTasks: byStatus.Expired,
    totalPaid,
    registeredProviders: providers.size,
    activeProviders: [...providers.values()].filter((isPaused) => !isPaused).length,
    blockNumber,
  }
}
