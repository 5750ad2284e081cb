import {
  type Address,
  type ParseEventLogsReturnType,
  parseEventLogs,
  type TransactionReceipt,
  zeroHash,
} from 'viem'
import {
  AuditResolved,
  AuditRoundOpened,
  ProviderSlashed,
  ReplicaPaid,
  RuntimeOverstated,
  TaskFinalized,
} from '../abis/taskMarket.js'
import { EventNotFoundError } from '../errors/transaction.js'
import type {
  AuditResolution,
  AuditRound,
  ProviderSlash,
  ReplicaPayment,
  RuntimeOverstatement,
  SettledStatus,
  TaskSettlement,
} from '../types/settlement.js'
import { auditVerdicts } from '../types/task.js'
import { parseFailure } from './failures.js'

const settledStatuses: Record<number, SettledStatus> = {
  4: 'Completed',
  5: 'Failed',
  6: 'Cancelled',
  7: 'Expired',
}

/**
 * The events a settlement writes (`AuditResolved` only when an audit ends, `RuntimeOverstated` when it found a
 * metered runtime overstated).
 */
export const settlementEvents = [
  TaskFinalized,
  ReplicaPaid,
  ProviderSlashed,
  AuditResolved,
  RuntimeOverstated,
] as const

type DecodedLog = ParseEventLogsReturnType<
  [
    typeof TaskFinalized,
    typeof ReplicaPaid,
    typeof ProviderSlashed,
    typeof AuditResolved,
    typeof RuntimeOverstated,
  ],
  undefined,
  true
>[number]

/** Each log type of a union reduced to its name and arguments (distributes over the union). */
type NameAndArgs<log> = log extends DecodedLog ? Pick<log, 'eventName' | 'args'> : never

/** A settlement event's name and arguments, as `parseEventLogs` or `getLogs` decode them. */
export type SettlementLog = NameAndArgs<DecodedLog>

/**
 * The settlement of `taskId` from `TaskFinalized`, `ReplicaPaid`,
 * `ProviderSlashed`, `AuditResolved` and `RuntimeOverstated` logs (pass only those of the settling
 * transaction); `undefined` without a `TaskFinalized` for the task. A task
 * settled by `releaseResult` or by the end of its audit pays its provider in
 * slot 0 and its auditors in slots 1 and on; the end of a dispute pays the
 * replicas whose result stands (slots below `replicas`) and the auditors
 * after them.
 */
export function decodeSettlement(logs: readonly SettlementLog[], taskId: bigint): TaskSettlement | undefined {
  let settlement: TaskSettlement | undefined
  let audit: AuditResolution | undefined
  let overstated: RuntimeOverstatement | undefined
  const payments: ReplicaPayment[] = []
  const slashes: ProviderSlash[] = []
  for (const log of logs) {
    if (log.args.taskId !== taskId) continue
    if (log.eventName === 'TaskFinalized') {
      const { args } = log
      settlement = {
        taskId: args.taskId,
        client: args.client,
        status: settledStatuses[args.status] ?? (String(args.status) as SettledStatus),
        resultDigest: args.resultDigest === zeroHash ? undefined : args.resultDigest,
        failure: parseFailure(args.resultDigest),
        paid: args.paid,
        refund: args.refund,
        payments,
        slashes,
        audit: undefined,
      }
    } else if (log.eventName === 'AuditResolved') {
      const { verdict, resultDigest } = log.args
      audit = {
        verdict: auditVerdicts[verdict] ?? 'none',
        resultDigest: resultDigest === zeroHash ? undefined : resultDigest,
        overstated: undefined,
      }
    } else if (log.eventName === 'RuntimeOverstated') {
      const { provider, billedSec, measuredSec, forfeit } = log.args
      overstated = { provider, billedSec, measuredSec, forfeit }
    } else if (log.eventName === 'ReplicaPaid') {
      const { slot, provider, payment, fee } = log.args
      payments.push({ slot, provider, payment, fee })
    } else {
      const { slot, provider, amount, toClient, outvoted } = log.args
      slashes.push({ slot, provider, amount, toClient, outvoted })
    }
  }
  if (settlement === undefined) return undefined
  // An audit that upheld a failed run names its digest; the settlement itself does not.
  const upheld = audit?.verdict === 'upheld' ? audit.resultDigest : undefined
  const failure = settlement.failure ?? (upheld === undefined ? undefined : parseFailure(upheld))
  return { ...settlement, failure, audit: audit && { ...audit, overstated } }
}

/**
 * The settlement a transaction wrote for one task; `undefined` when the
 * transaction did not settle the task.
 */
export function findSettlement(
  receipt: TransactionReceipt,
  market: Address,
  taskId: bigint,
): TaskSettlement | undefined {
  const logs = parseEventLogs({
    abi: settlementEvents,
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  })
  return decodeSettlement(logs, taskId)
}

/** {@link findSettlement}, or an {@link EventNotFoundError} when the transaction settled nothing. */
export function requireSettlement(
  action: string,
  receipt: TransactionReceipt,
  market: Address,
  taskId: bigint,
): TaskSettlement {
  const settlement = findSettlement(receipt, market, taskId)
  if (settlement === undefined) {
    throw new EventNotFoundError({ action, event: 'TaskFinalized', hash: receipt.transactionHash })
  }
  return settlement
}

/**
 * The audit round a transaction opened for one task (`AuditRoundOpened`): a
 * drawn result's first round, a dispute's first round, or the next round of
 * an audit whose round closed without a verdict; `undefined` when none.
 */
export function findAuditRound(
  receipt: TransactionReceipt,
  market: Address,
  taskId: bigint,
): AuditRound | undefined {
  const opened = parseEventLogs({
    abi: [AuditRoundOpened],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  }).find((log) => log.args.taskId === taskId)
  if (opened === undefined) return undefined
  const { round, firstSlot, auditors, joinDeadline } = opened.args
  return { round, firstSlot, auditors, joinDeadline: new Date(joinDeadline * 1000) }
}
