import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { priceFloorOf } from '../abis/providerRegistry.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'

export type GetPriceFloorParameters = DeploymentParameter & {
  /** The provider (default: the client's account). */
  provider?: Address | undefined
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** The least the provider takes per GPU-second, in base units (0n: any price, or never published). */
export type GetPriceFloorReturnType = bigint

export type GetPriceFloorErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  provider: z.optional(s.address),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads the price floor a provider published with `setPriceFloor`: the least
 * it takes per GPU-second, in base units of the token. An address that never
 * published one (or never registered) reads 0n.
 *
 * @example
 * import { getPriceFloor } from '@gridforge/sdk'
 *
 * const floor = await getPriceFloor(client, { deployment, provider: '0x…' })
 */
export async function getPriceFloor(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetPriceFloorParameters,
): Promise<GetPriceFloorReturnType> {
  const action = 'getPriceFloor'
  const params = validate(action, schema, parameters)
  const provider = accountAddress(client, action, params.provider, 'provider')
  return read<bigint>(client, {
    action,
    hints: providerRegistryHints,
    address: parameters.deployment.contracts.providers,
    abi: [priceFloorOf],
    functionName: 'priceFloorOf',
    args: [provider],
    blockNumber: params.blockNumber,
  })
}
