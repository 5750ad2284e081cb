import type { Account, Address, Chain, Client, Transport } from 'viem'
import { ProviderResumed, errors as providerRegistryErrors, resume } from '../abis/providerRegistry.js'
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

export type ResumeProviderParameters = DeploymentParameter & WriteOptions

export type ResumeProviderReturnType = WriteResult & {
  provider: Address
}

export type ResumeProviderErrorType =
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

/**
 * Lets a paused provider claim tasks again.
 *
 * @example
 * import { resumeProvider } from '@gridforge/sdk'
 *
 * await resumeProvider(client, { deployment })
 */
export async function resumeProvider(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: ResumeProviderParameters,
): Promise<ResumeProviderReturnType> {
  const { deployment } = parameters
  const action = 'resumeProvider'
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    address: providers,
    abi: [resume, ...providerRegistryErrors],
    functionName: 'resume',
    args: [],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, providers, ProviderResumed)
  return { provider: args.provider, hash: receipt.transactionHash, blockNumber: receipt.blockNumber }
}
