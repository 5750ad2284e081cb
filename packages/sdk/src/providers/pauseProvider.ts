import type { Account, Address, Chain, Client, Transport } from 'viem'
import { ProviderPaused, pause, errors as providerRegistryErrors } from '../abis/providerRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
import {
  findEvent,
  type WriteOptions,
  type WriteResult,
  writeAndWait,
  writeOptions,
} from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type PauseProviderParameters = DeploymentParameter & WriteOptions

export type PauseProviderReturnType = WriteResult & {
  provider: Address
}

export type PauseProviderErrorType =
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

/**
 * Stops the provider from claiming new tasks, e.g. for maintenance. Claims already made are unaffected and must still be delivered. `resumeProvider` undoes it.
 *
 * @example
 * import { pauseProvider } from '@gridforge/sdk'
 *
 * await pauseProvider(client, { deployment })
 */
export async function pauseProvider(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: PauseProviderParameters,
): Promise<PauseProviderReturnType> {
  const { deployment } = parameters
  const action = 'pauseProvider'
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    address: providers,
    abi: [pause, ...providerRegistryErrors],
    functionName: 'pause',
    args: [],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, providers, ProviderPaused)
  return { provider: args.provider, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
