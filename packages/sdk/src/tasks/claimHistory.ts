import type { Account, Chain, Client, Transport } from 'viem'
import { getBlock } from 'viem/actions'
import { getAction } from 'viem/utils'
import { TaskClaimed, TaskSubmitted } from '../abis/taskMarket.js'
import { getLogsPaginated } from '../internal/logs.js'
import type { Deployment } from '../types/deployment.js'
import { getTasks } from './getTasks.js'
import { pricePerGpuSecond } from './pricePerGpuSecond.js'

/** What recent claimed tasks of a source paid and how long they waited. */
export interface ClaimHistory {
  /** Claimed tasks of the source measured (the most recent, at most the `historySize` asked for). */
  tasks: number
  /**
   * Least, median and most they offered per GPU-second ({@link pricePerGpuSecond}: the price a provider's floor
   * is compared with, not what a metered run ended up paying), in base units; `undefined` without history.
   */
  pricePerGpuSecond: { min: bigint; median: bigint; max: bigint } | undefined
  /** Median seconds from submission to first claim; `undefined` without history. */
  timeToClaimSec: number | undefined
  /** Why there is no range and no time to claim (`undefined` when there are). */
  reason: string | undefined
}

/**
 * Submitted tasks looked at for each claimed one asked for: recent tasks that
 * nobody claimed yet do not count, and a source whose tasks mostly wait is
 * measured on fewer.
 */
export const candidatesPerTask = 4

/**
 * The last `historySize` tasks of `sourceId` that a provider claimed, up to
 * `blockNumber`: the range of what they paid per GPU-second (as
 * {@link pricePerGpuSecond} prices them: what providers compare with their
 * floors) and the median time from their submission to their first claim.
 * Reads TaskSubmitted of the source and TaskClaimed of its recent tasks
 * (`eth_getLogs`), the tasks' terms (`getTasks`) and the timestamps of their
 * blocks.
 */
export async function readClaimHistory(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  {
    deployment,
    sourceId,
    blockNumber,
    fromBlock,
    blockRange,
    historySize,
  }: {
    deployment: Deployment
    sourceId: number
    blockNumber: bigint
    fromBlock: bigint
    blockRange?: bigint | undefined
    historySize: number
  },
): Promise<ClaimHistory> {
  const market = deployment.contracts.market
  const submitted = await getLogsPaginated(client, {
    address: market,
    event: TaskSubmitted,
    args: { sourceId },
    fromBlock,
    toBlock: blockNumber,
    blockRange,
  })
  const candidates = submitted.slice(-historySize * candidatesPerTask)
  const first = candidates[0]
  if (first === undefined) return summarizeClaims(sourceId, 0, [])
  const claims = await getLogsPaginated(client, {
    address: market,
    event: TaskClaimed,
    args: { taskId: candidates.map((log) => log.args.taskId) },
    fromBlock: first.blockNumber,
    toBlock: blockNumber,
    blockRange,
  })
  // Logs come in block order: the first claim of a task is its first log.
  const claimedAt = new Map<bigint, bigint>()
  for (const log of claims)
    if (!claimedAt.has(log.args.taskId)) claimedAt.set(log.args.taskId, log.blockNumber)
  const claimed = candidates.filter((log) => claimedAt.has(log.args.taskId)).slice(-historySize)
  if (claimed.length === 0) return summarizeClaims(sourceId, candidates.length, [])

  const blocks = [...new Set([...claimed.map((log) => log.blockNumber), ...claimedAt.values()])]
  const [tasks, timestamps] = await Promise.all([
    getTasks(client, { deployment, taskIds: claimed.map((log) => log.args.taskId), blockNumber }),
    Promise.all(
      blocks.map(async (block) => {
        const { timestamp } = await getAction(client, getBlock, 'getBlock')({ blockNumber: block })
        return [block, timestamp] as const
      }),
    ).then((entries) => new Map(entries)),
  ])
  return summarizeClaims(
    sourceId,
    candidates.length,
    claimed.map((log, i) => {
      const claimBlock = claimedAt.get(log.args.taskId) as bigint
      return {
        pricePerGpuSecond: pricePerGpuSecond(tasks[i] as (typeof tasks)[number]),
        waitSec: Number((timestamps.get(claimBlock) as bigint) - (timestamps.get(log.blockNumber) as bigint)),
      }
    }),
  )
}

/**
 * The {@link ClaimHistory} of a source's claimed tasks, given what each
 * offered per GPU-second and waited from submission to first claim (any
 * order), and how many recent submissions they were found among (0: none yet).
 * The indexer's quotes summarize their tasks with it too.
 */
export function summarizeClaims(
  sourceId: number,
  candidates: number,
  claimed: readonly { pricePerGpuSecond: bigint; waitSec: number }[],
): ClaimHistory {
  if (candidates === 0) return none(`no task of source ${sourceId} was submitted yet`)
  if (claimed.length === 0)
    return none(`none of the last ${candidates} tasks of source ${sourceId} was claimed`)
  const prices = claimed.map((claim) => claim.pricePerGpuSecond).sort(compareBigints)
  const waits = claimed.map((claim) => claim.waitSec).sort((a, b) => a - b)
  return {
    tasks: claimed.length,
    pricePerGpuSecond: {
      min: prices[0] as bigint,
      median: median(prices, (a, b) => (a + b) / 2n),
      max: prices[prices.length - 1] as bigint,
    },
    timeToClaimSec: median(waits, (a, b) => Math.floor((a + b) / 2)),
    reason: undefined,
  }
}

function none(reason: string): ClaimHistory {
  return { tasks: 0, pricePerGpuSecond: undefined, timeToClaimSec: undefined, reason }
}

function compareBigints(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** The middle of sorted, non-empty `values`; of an even count, `mean` of the two middle ones. */
function median<value>(values: readonly value[], mean: (a: value, b: value) => value): value {
  const middle = Math.floor(values.length / 2)
  return values.length % 2 === 1
    ? (values[middle] as value)
    : mean(values[middle - 1] as value, values[middle] as value)
}
