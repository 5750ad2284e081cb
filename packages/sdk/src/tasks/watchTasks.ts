import type { Account, Address, Chain, Client, Hash, Hex, Transport } from 'viem'
import { zeroHash } from 'viem'
import { watchContractEvent } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { TaskClaimed, TaskFinalized, TaskSubmitted } from '../abis/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type TaskStatus, taskStatuses } from '../types/task.js'
import { getTasks } from './getTasks.js'

/** Where an event was emitted. */
export interface TaskEventLocation {
  taskId: bigint
  blockNumber: bigint
  transactionHash: Hash
  logIndex: number
}

/** A task was submitted (TaskSubmitted). */
export type TaskSubmittedEvent = TaskEventLocation & {
  client: Address
  sourceId: number
  inputCID: string
  /**
   * The client's X25519 public key the output is sealed to (see
   * `submitTask`'s `resultKey`); the zero hash: the output is published in
   * the clear.
   */
  resultKey: Hex
  /** replicas × maxPayment, in base units. */
  escrow: bigint
}

/** A provider claimed a slot (TaskClaimed). */
export type TaskClaimedEvent = TaskEventLocation & {
  provider: Address
  slot: number
  /** When the result (or commitment) is due. */
  dueAt: Date
  collateral: bigint
}

/** A task reached a final status (TaskFinalized). */
export type TaskSettledEvent = TaskEventLocation & {
  client: Address
  status: TaskStatus
  /**
   * The digest the replicas agreed on (after a dispute, the one that stood),
   * or a single result's digest when it settled as it was submitted;
   * `undefined` otherwise.
   */
  resultDigest: Hex | undefined
  paid: bigint
  refund: bigint
}

export type WatchTasksParameters = DeploymentParameter & {
  /** Called for each submitted task. */
  onSubmitted?: ((event: TaskSubmittedEvent) => void) | undefined
  /** Called for each claimed slot. */
  onClaimed?: ((event: TaskClaimedEvent) => void) | undefined
  /** Called for each task that settles (Completed, Failed, Cancelled or Expired). */
  onSettled?: ((event: TaskSettledEvent) => void) | undefined
  /** Called when polling fails (the watch goes on). */
  onError?: ((error: Error) => void) | undefined
  /** Only tasks of this client. */
  client?: Address | undefined
  /** Only tasks of this source. */
  sourceId?: number | bigint | undefined
  /** Only claims by this provider (submissions and settlements are not filtered by provider). */
  provider?: Address | undefined
  /** Only these tasks. */
  taskId?: number | bigint | readonly (number | bigint)[] | undefined
  /** Replay events from this block on before the new ones (uses `eth_getLogs` polling). */
  fromBlock?: bigint | undefined
  /** Milliseconds between polls (default: the client's `pollingInterval`). */
  pollingInterval?: number | undefined
}

/** Stops watching. */
export type WatchTasksReturnType = () => void

export type WatchTasksErrorType = InvalidParametersErrorType | Error

const schema = z.object({
  client: z.optional(s.address),
  sourceId: z.optional(s.uint(32)),
  provider: z.optional(s.address),
  taskId: z.optional(z.union([s.taskId, z.array(s.taskId)])),
  fromBlock: z.optional(z.bigint()),
  pollingInterval: z.optional(s.uint(31)),
})

/**
 * Watches the market for submissions, claims and settlements, with viem's
 * `watchContractEvent` (polling over HTTP, a subscription over WebSocket).
 * Filters run on the node where the event has the field as an indexed topic;
 * a claim carries neither client nor source and a settlement no source, so
 * with those filters the task is read once (and remembered) to decide.
 * Callbacks of different kinds are not ordered with respect to each other.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { watchTasks } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const unwatch = watchTasks(client, {
 *   deployment: getDeployment(31337),
 *   client: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
 *   onClaimed: ({ taskId, provider }) => console.log(`task ${taskId} claimed by ${provider}`),
 *   onSettled: ({ taskId, status }) => console.log(`task ${taskId}: ${status}`),
 * })
 * // later
 * unwatch()
 */
export function watchTasks(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: WatchTasksParameters,
): WatchTasksReturnType {
  const { deployment, onSubmitted, onClaimed, onSettled, onError } = parameters
  const params = validate('watchTasks', schema, parameters)
  const taskId = params.taskId
  const watch = getAction(client, watchContractEvent, 'watchContractEvent')
  const common = {
    address: deployment.contracts.market,
    strict: true as const,
    fromBlock: params.fromBlock,
    pollingInterval: params.pollingInterval,
    onError: (error: Error) => onError?.(error),
  }

  // Client and source of tasks seen, for events that lack them.
  const known = new Map<bigint, { client: Address; sourceId: number }>()
  const matches = async (taskIds: bigint[], { checkClient }: { checkClient: boolean }) => {
    const missing = [...new Set(taskIds.filter((id) => !known.has(id)))]
    if (missing.length > 0) {
      for (const task of await getTasks(client, { deployment, taskIds: missing })) {
        known.set(task.taskId, { client: task.client, sourceId: task.sourceId })
      }
    }
    return (id: bigint) => {
      const task = known.get(id)
      return (
        task !== undefined &&
        (!checkClient ||
          params.client === undefined ||
          task.client.toLowerCase() === params.client.toLowerCase()) &&
        (params.sourceId === undefined || task.sourceId === params.sourceId)
      )
    }
  }
  const report = (error: unknown) => onError?.(error instanceof Error ? error : new Error(String(error)))
  // Lookups finish in the order the logs came, so callbacks keep the chain's order.
  let queue = Promise.resolve()
  const afterLookup = (
    taskIds: bigint[],
    checkClient: boolean,
    deliver: (keep: (id: bigint) => boolean) => void,
  ) => {
    queue = queue.then(() => matches(taskIds, { checkClient }).then(deliver).catch(report))
  }

  const unwatchers: (() => void)[] = []
  if (onSubmitted !== undefined) {
    unwatchers.push(
      watch({
        ...common,
        abi: [TaskSubmitted],
        eventName: 'TaskSubmitted',
        args: { taskId, client: params.client, sourceId: params.sourceId },
        onLogs: (logs) => {
          for (const log of logs) {
            if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue
            known.set(log.args.taskId, { client: log.args.client, sourceId: log.args.sourceId })
            onSubmitted({
              taskId: log.args.taskId,
              client: log.args.client,
              sourceId: log.args.sourceId,
              inputCID: log.args.inputCID,
              resultKey: log.args.resultKey,
              escrow: log.args.escrow,
              blockNumber: log.blockNumber,
              transactionHash: log.transactionHash,
              logIndex: log.logIndex,
            })
          }
        },
      }),
    )
  }
  if (onClaimed !== undefined) {
    const lookup = params.client !== undefined || params.sourceId !== undefined
    unwatchers.push(
      watch({
        ...common,
        abi: [TaskClaimed],
        eventName: 'TaskClaimed',
        args: { taskId, provider: params.provider },
        onLogs: (logs) => {
          const deliver = (keep: (id: bigint) => boolean) => {
            for (const log of logs) {
              if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue
              if (!keep(log.args.taskId)) continue
              onClaimed({
                taskId: log.args.taskId,
                provider: log.args.provider,
                slot: log.args.slot,
                dueAt: new Date(log.args.dueAt * 1000),
                collateral: log.args.collateral,
                blockNumber: log.blockNumber,
                transactionHash: log.transactionHash,
                logIndex: log.logIndex,
              })
            }
          }
          if (lookup)
            afterLookup(
              logs.map((log) => log.args.taskId),
              true,
              deliver,
            )
          else deliver(() => true)
        },
      }),
    )
  }
  if (onSettled !== undefined) {
    const lookup = params.sourceId !== undefined
    unwatchers.push(
      watch({
        ...common,
        abi: [TaskFinalized],
        eventName: 'TaskFinalized',
        args: { taskId, client: params.client },
        onLogs: (logs) => {
          const deliver = (keep: (id: bigint) => boolean) => {
            for (const log of logs) {
              if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue
              if (!keep(log.args.taskId)) continue
              onSettled({
                taskId: log.args.taskId,
                client: log.args.client,
                status: (taskStatuses[log.args.status] ?? 'Failed') as TaskStatus,
                resultDigest: log.args.resultDigest === zeroHash ? undefined : log.args.resultDigest,
                paid: log.args.paid,
                refund: log.args.refund,
                blockNumber: log.blockNumber,
                transactionHash: log.transactionHash,
                logIndex: log.logIndex,
              })
            }
          }
          if (lookup)
            afterLookup(
              logs.map((log) => log.args.taskId),
              false,
              deliver,
            )
          else deliver(() => true)
        },
      }),
    )
  }
  return () => {
    for (const unwatch of unwatchers.splice(0)) unwatch()
  }
}
