import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { ProviderRegistered, errors as providerRegistryErrors, register } from '../abis/providerRegistry.js'
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
import { gridToken } from '../utils/amount.js'

/** What a provider's host offers: tasks whose requirements exceed it cannot be claimed. */
export interface Capabilities {
  /** Number of GPUs (0 to 255). */
  gpuCount: number
  /** Memory of the smallest GPU, in MiB. */
  vramMiB: number
  /** Lowest CUDA compute capability among the GPUs × 10 (89 for sm_89); 0 without GPUs. */
  computeCapability: number
  /** CPU cores (at least 1). */
  cpuCores: number
  /** Memory, in MiB (at least 1). */
  memoryMiB: number
}

/** The zod (`zod/mini`) schema of {@link Capabilities}, as the registry checks them. */
export const capabilitiesSchema = /* @__PURE__ */ z.object(
  {
    gpuCount: s.uint(8),
    vramMiB: s.uint(32),
    computeCapability: s.uint(8),
    cpuCores: z.pipe(s.uint(16), z.number().check(z.gte(1, { error: 'at least one CPU core' }))),
    memoryMiB: z.pipe(s.uint(32), z.number().check(z.gte(1, { error: 'must be at least 1 MiB' }))),
  },
  { error: 'expected { gpuCount, vramMiB, computeCapability, cpuCores, memoryMiB }' },
)

export type RegisterProviderParameters = DeploymentParameter &
  WriteOptions & {
    /** What this host offers. */
    capabilities: Capabilities
    /** CID of the full hardware report (provider-kit's `detect` output). */
    profile: string
  }

export type RegisterProviderReturnType = WriteResult & {
  /** The registered provider: the sender. */
  provider: Address
  capabilities: Capabilities
  profile: string
}

export type RegisterProviderErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = /* @__PURE__ */ z.object({ capabilities: capabilitiesSchema, profile: s.cid })

/**
 * Registers the account as a provider with its host's capabilities. Needs
 * available stake of at least the registry's `minProviderStake` (see
 * `getProviderRegistryParams`; `stake` first). Then `subscribeSources` to the
 * sources it will run.
 *
 * @example
 * import { registerProvider, stake } from '@gridforge/sdk'
 *
 * await stake(client, { deployment, amount: '100', permit: true })
 * await registerProvider(client, {
 *   deployment,
 *   capabilities: { gpuCount: 1, vramMiB: 24_576, computeCapability: 89, cpuCores: 16, memoryMiB: 65_536 },
 *   profile: 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
 * })
 */
export async function registerProvider(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: RegisterProviderParameters,
): Promise<RegisterProviderReturnType> {
  const { deployment } = parameters
  const action = 'registerProvider'
  const params = validate(action, schema, parameters)
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    token: deployment.token ?? gridToken,
    address: providers,
    abi: [register, ...providerRegistryErrors],
    functionName: 'register',
    args: [params.capabilities, params.profile],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, providers, ProviderRegistered)
  return {
    provider: args.provider,
    capabilities: { ...args.capabilities },
    profile: args.profileCID,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
