import type { Account, Chain, Client, Transport } from 'viem'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import { expireTask as expireTaskFunction, errors as taskMarketErrors } from '../abis/taskMarket.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import { stakingHints } from '../errors/hints/staking.js'
import { taskMarketHints } from '../errors/hints/taskMarket.js'
import type { TransactionRevertedErrorType } from '../errors/transaction.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import type { WriteOptions, WriteResult } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import type { TaskSettlement } from '../types/settlement.js'
import { settleTask } from './settleTask.js'

export type ExpireTaskParameters = DeploymentParameter &
  WriteOptions & {
    /** A task past its deadline that has not settled. */
    taskId: number | bigint
  }

/** The settlement, with status `'Expired'`: the refund and the no-shows slashed. */
export type ExpireTaskReturnType = WriteResult & TaskSettlement

export type ExpireTaskErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | Error

/**
 * Expires a task whose deadline passed before it settled: the escrow goes back
 * to the client's market balance, claimants that never delivered are slashed
 * (part of their collateral compensates the client) and those that committed
 * get their collateral back. Anyone may call it.
 *
 * @example
 * import { expireTask } from '@gridforge/sdk'
 *
 * const { refund, slashes } = await expireTask(client, { deployment, taskId: 12n })
 */
export async function expireTask(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ExpireTaskParameters,
): Promise<ExpireTaskReturnType> {
  return settleTask(client, parameters, {
    action: 'expireTask',
    functionName: 'expireTask',
    abi: [expireTaskFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
  })
}
