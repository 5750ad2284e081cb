import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  ProviderUpdated,
  errors as providerRegistryErrors,
  updateCapabilities as updateCapabilitiesFunction,
} from '../abis/providerRegistry.js'
import type { ContractRevertedErrorType } from '../errors/contract.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { EventNotFoundErrorType, TransactionRevertedErrorType } from '../errors/transaction.js'
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
import { type Capabilities, capabilitiesSchema } from './registerProvider.js'

export type UpdateCapabilitiesParameters = DeploymentParameter &
  WriteOptions & {
    /** What this host offers now (replaces the old capabilities). */
    capabilities: Capabilities
    /** CID of the new hardware report. */
    profile: string
  }

export type UpdateCapabilitiesReturnType = WriteResult & {
  provider: Address
  capabilities: Capabilities
  profile: string
}

export type UpdateCapabilitiesErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ capabilities: capabilitiesSchema, profile: s.cid })

/**
 * Replaces a registered provider's capabilities and hardware report, e.g.
 * after a GPU was added or removed. Claims already made are unaffected.
 *
 * @example
 * import { updateCapabilities } from '@gridforge/sdk'
 *
 * await updateCapabilities(client, {
 *   deployment,
 *   capabilities: { gpuCount: 2, vramMiB: 24_576, computeCapability: 89, cpuCores: 16, memoryMiB: 65_536 },
 *   profile: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
 * })
 */
export async function updateCapabilities(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: UpdateCapabilitiesParameters,
): Promise<UpdateCapabilitiesReturnType> {
  const { deployment } = parameters
  const action = 'updateCapabilities'
  const params = validate(action, schema, parameters)
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    address: providers,
    abi: [updateCapabilitiesFunction, ...providerRegistryErrors],
    functionName: 'updateCapabilities',
    args: [params.capabilities, params.profile],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, providers, ProviderUpdated)
  return {
    provider: args.provider,
    capabilities: { ...args.capabilities },
    profile: args.profileCID,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
