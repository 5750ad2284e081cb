import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { cancelTask as cancelTaskFunction, errors as taskMarketErrors } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validate } from '../internal/validate.js'
import { type WriteOptions, type WriteResult, writeAndWait } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'
import { requireSettlement, type TaskSettlement } from './finalizeTask.js'
import { taskIdSchema } from './getTask.js'

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

const schema = /* @__PURE__ */ z.object({ taskId: taskIdSchema })

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
  const { deployment, account, confirmations } = parameters
  const action = 'cancelTask'
  const taskId = validate(action, schema, parameters).taskId as bigint
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: taskMarketHints,
    token: deployment.token ?? gridToken,
    address: market,
    abi: [cancelTaskFunction, ...taskMarketErrors],
    functionName: 'cancelTask',
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
