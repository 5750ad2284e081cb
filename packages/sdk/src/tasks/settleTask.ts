import type { Abi, Account, Chain, Client, TransactionReceipt, Transport } from 'viem'
import * as z from 'zod/mini'
import type { RevertHints } from '../errors/contract.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { type WriteOptions, type WriteResult, writeAndWait, writeOptions } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { TaskSettlement } from '../types/settlement.js'
import { gridToken } from '../utils/amount.js'
import { requireSettlement } from './settlement.js'

const schema = /* @__PURE__ */ z.object({ taskId: s.taskId })

interface TaskCall {
  action: string
  functionName: 'cancelTask' | 'expireTask' | 'finalizeTask'
  /** The function's ABI item and the `errors` of every contract that can revert in the call. */
  abi: Abi
  hints: RevertHints
}

/**
 * Validates `taskId`, sends `functionName(taskId)` to the market and waits for
 * the receipt. Internal: not exported from the package.
 */
export async function sendTaskCall(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: DeploymentParameter & WriteOptions & { taskId: number | bigint },
  { action, functionName, abi, hints }: TaskCall,
): Promise<{ taskId: bigint; receipt: TransactionReceipt }> {
  const { deployment } = parameters
  const taskId = validate(action, schema, parameters).taskId
  const receipt = await writeAndWait(client, {
    action,
    hints,
    token: deployment.token ?? gridToken,
    address: deployment.contracts.market,
    abi,
    functionName,
    args: [taskId],
    ...writeOptions(parameters),
  })
  return { taskId, receipt }
}

/**
 * The body shared by the actions that settle a task by id (`cancelTask`,
 * `expireTask`): {@link sendTaskCall}, then the settlement it wrote.
 * Internal: not exported from the package.
 */
export async function settleTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: DeploymentParameter & WriteOptions & { taskId: number | bigint },
  call: TaskCall,
): Promise<WriteResult & TaskSettlement> {
  const { taskId, receipt } = await sendTaskCall(client, parameters, call)
  return {
    ...requireSettlement(call.action, receipt, parameters.deployment.contracts.market, taskId),
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
