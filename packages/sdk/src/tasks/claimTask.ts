import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import {
  claimTask as claimTaskFunction,
  TaskClaimed,
  errors as taskMarketErrors,
} from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { gridToken } from '../utils/amount.js'

export type ClaimTaskParameters = DeploymentParameter &
  WriteOptions & {
    /** The task to claim a slot of. */
    taskId: number | bigint
  }

export type ClaimTaskReturnType = WriteResult & {
  taskId: bigint
  /** The claimant. */
  provider: Address
  /** The slot taken (0 to replicas − 1). */
  slot: number
  /**
   * When the result (replicas = 1) or the commitment (replicas > 1) is due:
   * the claim time + the task's maxRuntimeSec + the market's claimGrace, at
   * most the task's deadline. After it anyone may reopen the slot and slash
   * the collateral.
   */
  dueAt: Date
  /** Stake locked until the slot settles, in base units. */
  collateral: bigint
}

export type ClaimTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ taskId: s.taskId })

/**
 * Claims the lowest free slot of an open task for the sending provider and
 * locks the task's collateral from its available stake. The provider must be
 * registered, not paused, subscribed to the task's source, meet its
 * requirements and reputation gates, and hold no other slot of the task.
 *
 * @example
 * import { claimTask } from '@gridforge/sdk'
 *
 * const { slot, dueAt, collateral } = await claimTask(providerClient, { deployment, taskId: 12n })
 * console.log(`slot ${slot}: deliver before ${dueAt.toISOString()}`)
 */
export async function claimTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ClaimTaskParameters,
): Promise<ClaimTaskReturnType> {
  const { deployment } = parameters
  const action = 'claimTask'
  const taskId = validate(action, schema, parameters).taskId as bigint
  const market = deployment.contracts.market
  const receipt = await writeAndWait(client, {
    action,
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
    token: deployment.token ?? gridToken,
    address: market,
    abi: [claimTaskFunction, ...taskMarketErrors, ...providerRegistryErrors, ...stakingErrors],
    functionName: 'claimTask',
    args: [taskId],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, market, TaskClaimed)
  return {
    taskId: args.taskId,
    provider: args.provider,
    slot: args.slot,
    dueAt: new Date(args.dueAt * 1000),
    collateral: args.collateral,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
