import {
  type Address,
  type ParseEventLogsReturnType,
  parseEventLogs,
  type TransactionReceipt,
  zeroHash,
} from 'viem'
import { ProviderSlashed, ReplicaPaid, TaskFinalized } from '../abis/taskMarket.js'
import { EventNotFoundError } from '../errors/transaction.js'
import type { ProviderSlash, ReplicaPayment, SettledStatus, TaskSettlement } from '../types/settlement.js'

const settledStatuses: Record<number, SettledStatus> = {
  4: 'Completed',
  5: 'Failed',
  6: 'Cancelled',
  7: 'Expired',
}

type DecodedLog = ParseEventLogsReturnType<
  [typeof TaskFinalized, typeof ReplicaPaid, typeof ProviderSlashed],
  undefined,
  true
>[number]

/** Each log type of a union reduced to its name and arguments (distributes over the union). */
type NameAndArgs<log> = log extends DecodedLog ? Pick<log, 'eventName' | 'args'> : never

/** A settlement event's name and arguments, as `parseEventLogs` or `getLogs` decode them. */
export type SettlementLog = NameAndArgs<DecodedLog>

/**
 * The settlement of `taskId` from `TaskFinalized`, `ReplicaPaid` and
 * `ProviderSlashed` logs (pass only those of the settling transaction);
 * `undefined` without a `TaskFinalized` for the task.
 */
export function decodeSettlement(logs: readonly SettlementLog[], taskId: bigint): TaskSettlement | undefined {
  let settlement: TaskSettlement | undefined
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
        paid: args.paid,
        refund: args.refund,
        payments,
        slashes,
      }
    } else if (log.eventName === 'ReplicaPaid') {
      const { slot, provider, payment, fee } = log.args
      payments.push({ slot, provider, payment, fee })
    } else {
      const { slot, provider, amount, toClient, outvoted } = log.args
      slashes.push({ slot, provider, amount, toClient, outvoted })
    }
  }
  return settlement
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
    abi: [TaskFinalized, ReplicaPaid, ProviderSlashed],
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
