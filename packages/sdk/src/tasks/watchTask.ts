import type { Account, Chain, Client, ContractEventArgsFromTopics, ContractEventName, Transport } from 'viem'
import { watchContractEvent } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import {
  AuditDrawn,
  AuditorJoined,
  AuditorReplaced,
  AuditResolved,
  AuditRoundOpened,
  ClaimReplaced,
  ProviderSlashed,
  ReplicaPaid,
  ResultCommitted,
  ResultRevealed,
  ResultSubmitted,
  RevealOpened,
  SlotReopened,
  TaskClaimed,
  TaskFinalized,
  TaskSubmitted,
} from '../abis/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { TaskEventLocation } from './watchTasks.js'

/** The market events of one task (an ABI): each has the task id as its first indexed topic. */
export const taskEvents = [
  TaskSubmitted,
  TaskClaimed,
  ClaimReplaced,
  ResultSubmitted,
  ResultCommitted,
  RevealOpened,
  ResultRevealed,
  SlotReopened,
  AuditDrawn,
  AuditRoundOpened,
  AuditorJoined,
  AuditorReplaced,
  AuditResolved,
  ReplicaPaid,
  ProviderSlashed,
  TaskFinalized,
] as const

/** The name of a market event of a task. */
export type TaskEventName = ContractEventName<typeof taskEvents>

/**
 * A market event of a task, by `eventName`, with the event's arguments as
 * decoded from the ABI (`args.taskId` included).
 */
export type TaskEvent = {
  [eventName in TaskEventName]: TaskEventLocation & {
    eventName: eventName
    args: ContractEventArgsFromTopics<typeof taskEvents, eventName, true>
  }
}[TaskEventName]

export type WatchTaskParameters = DeploymentParameter & {
  /** The task to watch. */
  taskId: number | bigint
  /** Called for each event of the task, in chain order. */
  onEvent: (event: TaskEvent) => void
  /** Called when polling fails (the watch goes on). */
  onError?: ((error: Error) => void) | undefined
  /** Milliseconds between polls (default: the client's `pollingInterval`). */
  pollingInterval?: number | undefined
  /**
   * Replay events from this block on before the new ones (uses `eth_getLogs` polling). Without it,
   * events from the next block on (some nodes, Hardhat's among them, also report the latest block's).
   */
  fromBlock?: bigint | undefined
}

/** Stops watching. */
export type WatchTaskReturnType = () => void

export type WatchTaskErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  taskId: s.taskId,
  fromBlock: z.optional(z.bigint()),
  pollingInterval: z.optional(s.uint(31)),
})

/**
 * Watches every market event of one task — submission, claims (and seats
 * taken by better tickets in the race for the seats of replicas), results,
 * commitments, reveals, reopened slots, the audit of a held result or the
 * dispute of replicas whose results differ (draw, rounds, auditors,
 * verdict), payments, slashes and settlement —
 * with a single viem `watchContractEvent` (polling over HTTP, a subscription
 * over WebSocket), so `onEvent` sees them in chain order. Use it to refresh a
 * task's view whenever the task changes.
 *
 * @example
 * import { createPublicClient, http } from 'viem'
 * import { hardhat } from 'viem/chains'
 * import { getDeployment } from '@gridforge/contracts'
 * import { watchTask } from '@gridforge/sdk'
 *
 * const client = createPublicClient({ chain: hardhat, transport: http() })
 * const unwatch = watchTask(client, {
 *   deployment: getDeployment(31337),
 *   taskId: 7n,
 *   onEvent: (event) => {
 *     if (event.eventName === 'TaskFinalized') console.log(`paid ${event.args.paid}`)
 *     else console.log(event.eventName, 'in block', event.blockNumber)
 *   },
 * })
 * // later
 * unwatch()
 */
export function watchTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: WatchTaskParameters,
): WatchTaskReturnType {
  const { deployment, onEvent, onError } = parameters
  const { taskId, fromBlock, pollingInterval } = validate('watchTask', schema, parameters)
  const names: ReadonlySet<string> = new Set(taskEvents.map((event) => event.name))
  return getAction(
    client,
    watchContractEvent,
    'watchContractEvent',
  )({
    address: deployment.contracts.market,
    abi: taskEvents,
    strict: true,
    fromBlock,
    pollingInterval,
    onError: (error) => onError?.(error),
    onLogs: (logs) => {
      for (const log of logs) {
        // Filtered here, not on the node: viem encodes `args` into topics only for a single named
        // event, and one watch over every event is what keeps them in order. The name is checked
        // too, as viem shares one poll among watches with the same options, whatever their ABI.
        if (!names.has(log.eventName) || log.args.taskId !== taskId) continue
        if (log.blockNumber === null || log.transactionHash === null || log.logIndex === null) continue
        onEvent({
          eventName: log.eventName,
          taskId,
          blockNumber: log.blockNumber,
          transactionHash: log.transactionHash,
          logIndex: log.logIndex,
          args: log.args,
        } as TaskEvent)
      }
    },
  })
}
