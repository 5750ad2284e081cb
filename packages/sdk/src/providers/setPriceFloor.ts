import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import {
  PriceFloorSet,
  errors as providerRegistryErrors,
  setPriceFloor as setPriceFloorFunction,
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
import { type Amount, gridToken } from '../utils/amount.js'

export type SetPriceFloorParameters = DeploymentParameter &
  WriteOptions & {
    /**
     * The least the provider takes per GPU-second, e.g. `'0.000001'` (token
     * units) or a bigint (base units); `'0'` takes any price. The same unit as
     * the agent policy's `minPricePerGpuSecond`.
     */
    minPricePerGpuSecond: Amount
  }

export type SetPriceFloorReturnType = WriteResult & {
  provider: Address
  /** The published floor, in base units per GPU-second. */
  minPricePerGpuSecond: bigint
}

export type SetPriceFloorErrorType =
  | InvalidParametersErrorType
  | ContractRevertedErrorType
  | TransactionRevertedErrorType
  | EventNotFoundErrorType
  | Error

const schema = (decimals: number) => z.object({ minPricePerGpuSecond: s.amount(decimals) })

/**
 * Publishes the least this provider takes per GPU-second, so that clients
 * see before they submit (`quoteTask`) whether it would take their task. A
 * task's price per GPU-second is its `pricePerSecond` (metered), or
 * `maxPayment / maxRuntimeSec` (fixed price), divided by its GPUs
 * (`pricePerGpuSecond`). Claims do not check the floor: it is the provider's
 * word, kept by its agent's policy. Only a registered provider may set it
 * (`ProviderRegistryNotRegistered` otherwise: register first).
 *
 * @example
 * import { setPriceFloor } from '@gridforge/sdk'
 *
 * await setPriceFloor(client, { deployment, minPricePerGpuSecond: '0.000001' })
 */
export async function setPriceFloor(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: SetPriceFloorParameters,
): Promise<SetPriceFloorReturnType> {
  const { deployment } = parameters
  const token = deployment.token ?? gridToken
  const action = 'setPriceFloor'
  const params = validate(action, schema(token.decimals), parameters)
  const providers = deployment.contracts.providers
  const receipt = await writeAndWait(client, {
    action,
    hints: providerRegistryHints,
    token,
    address: providers,
    abi: [setPriceFloorFunction, ...providerRegistryErrors],
    functionName: 'setPriceFloor',
    args: [params.minPricePerGpuSecond],
    ...writeOptions(parameters),
  })
  const { args } = findEvent(action, receipt, providers, PriceFloorSet)
  return {
    provider: args.provider,
    minPricePerGpuSecond: args.minPricePerGpuSecond,
    hash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
  }
}
