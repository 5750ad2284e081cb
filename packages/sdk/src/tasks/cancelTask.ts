import type { Account, Chain, Client, Transport } from 'viem'
import { cancelTask as cancelTaskFunction, errors as taskMarketErrors } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { WriteOptions, WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { TaskSettlement } from '../types/settlement.js'
import { settleTask } from './settleTask.js'

export type CancelTaskParameters = DeploymentParameter &
  WriteOptions & {
    /** A task of the sender that no provider has claimed. */
    taskId: number | bigint
  }

/** The settlement, with status `'Cancelled'` and the whole escrow as `refund`. */
export type CancelTaskReturnType = WriteResult & TaskSettlement

export type CancelTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Cancels a task before any provider claimed it and returns its escrow to the
 * client's market balance (withdraw it with `withdraw`). Only the client that
 * submitted the task can cancel it.
 *
 * @example
 * import { cancelTask } from '@gridforge/sdk'
 *
 * const { refund } = await cancelTask(client, { deployment, taskId: 12n })
 */
export async function cancelTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: CancelTaskParameters,
): Promise<CancelTaskReturnType> {
  return settleTask(client, parameters, {
    action: 'cancelTask',
    functionName: 'cancelTask',
    abi: [cancelTaskFunction, ...taskMarketErrors],
    hints: taskMarketHints,
  })
}
