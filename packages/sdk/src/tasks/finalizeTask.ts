import {
  type Account,
  type Address,
  type Chain,
  type Client,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
  type Transport,
  zeroHash,
} from 'viem'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  finalizeTask as finalizeTaskFunction,
  ProviderSlashed,
  ReplicaPaid,
  TaskFinalized,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import { EventNotFoundError, type TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validate } from '../internal/validate.js'
import { type WriteOptions, type WriteResult, writeAndWait } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'
import { taskIdSchema } from './getTask.js'

/** The final statuses a task settles in. */
export type SettledStatus = 'Completed' | 'Failed' | 'Cancelled' | 'Expired'

const settledStatuses: Record<number, SettledStatus> = {
  4: 'Completed',
  5: 'Failed',
  6: 'Cancelled',
  7: 'Expired',
}

/** One replica paid at settlement. */
export interface ReplicaPayment {
  slot: number
  provider: Address
  /** Charged to the escrow: what the provider earned plus `fee`. */
  payment: bigint
  /** The protocol fee taken from `payment`. */
  fee: bigint
}

/** One claimant slashed (a no-show, a missed reveal, or outvoted). */
export interface ProviderSlash {
  slot: number
  provider: Address
  /** Collateral taken. */
  amount: bigint
  /** The part of `amount` paid to the client. */
  toClient: bigint
  /** True when the provider revealed a result that lost the vote. */
  outvoted: boolean
}

/** How a task settled: its final status, who was paid or slashed, what the client got back. */
export interface TaskSettlement {
  taskId: bigint
  client: Address
  status: SettledStatus
  /** The winning result digest of a consensus task; `undefined` otherwise. */
  resultDigest: Hex | undefined
  /** Paid out of the escrow to providers (fees included). */
  paid: bigint
  /** The unspent escrow returned to the client's market balance. */
  refund: bigint
  payments: ReplicaPayment[]
  slashes: ProviderSlash[]
}

/**
 * The settlement a transaction wrote for one task, decoded from its
 * `TaskFinalized`, `ReplicaPaid` and `ProviderSlashed` events; `undefined`
 * when the transaction did not settle the task.
 */
export function findSettlement(
  receipt: TransactionReceipt,
  market: Address,
  taskId: bigint,
): TaskSettlement | undefined {
  const logs = parseEventLogs({
    abi: [TaskFinalized, ReplicaPaid, ProviderSlashed],
    logs: receipt.logs.filter((log) => log.address.toLowerCase() === market.toLowerCase()),
  }).filter((log) => log.args.taskId === taskId)
  let settlement: TaskSettlement | undefined
  const payments: ReplicaPayment[] = []
  const slashes: ProviderSlash[] = []
  for (const log of logs) {
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

export type FinalizeTaskParameters = DeploymentParameter &
  WriteOptions & {
    /** A consensus task whose reveal window has closed. */
    taskId: number | bigint
  }

export type FinalizeTaskReturnType = WriteResult & TaskSettlement

export type FinalizeTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ taskId: taskIdSchema })

/**
 * Settles a consensus task (replicas > 1) whose reveal window closed before
 * every claimant revealed. Anyone may call it. The digest revealed by a strict
 * majority wins and its providers are paid; outvoted providers and those that
 * did not reveal are slashed; without a majority the task fails and the client
 * is refunded.
 *
 * @example
 * import { finalizeTask } from '@gridforge/sdk'
 *
 * const { status, payments, slashes, refund } = await finalizeTask(client, { deployment, taskId: 12n })
 * // status: 'Completed' | 'Failed'
 */
export async function finalizeTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: FinalizeTaskParameters,
): Promise<FinalizeTaskReturnType> {
  const { deployment, account, confirmations } = parameters
  const action = 'finalizeTask'
  const taskId = validate(action, schema, parameters).taskId as bigint
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [finalizeTaskFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    functionName: 'finalizeTask',
    args: [taskId],
    account,
    confirmations,
  })
  return {
    ...requireSettlement(action, receipt, market, taskId),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
