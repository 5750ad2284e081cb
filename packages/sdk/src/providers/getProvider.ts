import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { getProvider as getProviderFunction } from '../abis/providerRegistry.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'
import { type Reputation, type ReputationStruct, toReputation } from './getReputation.js'
import type { Capabilities } from './registerProvider.js'

/** A provider's profile in the registry. */
export interface Provider {
  provider: Address
  /** Whether it registered; an unregistered address reads as all zero. */
  registered: boolean
  /** Whether it stopped claiming new tasks. */
  paused: boolean
  /** When it registered; `undefined` when it did not. */
  registeredAt: Date | undefined
  capabilities: Capabilities
  reputation: Reputation
}

export type GetProviderParameters = DeploymentParameter & {
  /** The provider (default: the client's account). */
  provider?: Address | undefined
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

export type GetProviderReturnType = Provider

export type GetProviderErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  provider: z.optional(s.address),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads a provider's profile: whether it is registered and paused, its
 * capabilities and its reputation. Any address can be read: one that never
 * registered has `registered: false`.
 *
 * @example
 * import { getProvider } from '@gridforge/sdk'
 *
 * const { registered, paused, capabilities, reputation } = await getProvider(client, { deployment })
 */
export async function getProvider(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetProviderParameters,
): Promise<GetProviderReturnType> {
  const action = 'getProvider'
  const params = validate(action, schema, parameters)
  const provider = accountAddress(client, action, params.provider, 'provider')
  const info = await read<{
    registered: boolean
    paused: boolean
    registeredAt: number
    capabilities: Capabilities
    reputation: ReputationStruct
  }>(client, {
    action,
    hints: providerRegistryHints,
    address: parameters.deployment.contracts.providers,
    abi: [getProviderFunction],
    functionName: 'getProvider',
    args: [provider],
    blockNumber: params.blockNumber,
  })
  const { gpuCount, vramMiB, computeCapability, cpuCores, memoryMiB } = info.capabilities
  return {
    provider,
    registered: info.registered,
    paused: info.paused,
    registeredAt: info.registeredAt === 0 ? undefined : new Date(info.registeredAt * 1000),
    capabilities: { gpuCount, vramMiB, computeCapability, cpuCores, memoryMiB },
    reputation: toReputation(info.reputation),
  }
}
