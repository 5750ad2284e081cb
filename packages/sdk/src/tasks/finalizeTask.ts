import type { Account, Chain, Client, Transport } from 'viem'
import { errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import { errors as stakingErrors } from '../abis/staking.js'
import { finalizeTask as finalizeTaskFunction, errors as taskMarketErrors } from '../abis/taskMarket.js'
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
  return settleTask(client, parameters, {
    action: 'finalizeTask',
    functionName: 'finalizeTask',
    abi: [finalizeTaskFunction, ...taskMarketErrors, ...stakingErrors, ...providerRegistryErrors],
    hints: { ...providerRegistryHints, ...stakingHints, ...taskMarketHints },
  })
}
