import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { isSubscribed as isSubscribedFunction } from '../abis/providerRegistry.js'
import { providerRegistryHints } from '../errors/hints/registries.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'

export type IsSubscribedParameters = DeploymentParameter & {
  /** The provider (default: the client's account). */
  provider?: Address | undefined
  sourceId: number | bigint
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** Whether the provider is in the source's pool. */
export type IsSubscribedReturnType = boolean

export type IsSubscribedErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  provider: z.optional(s.address),
  sourceId: s.uint(32),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Tells whether a provider is subscribed to a source (in its pool, so it may
 * claim its tasks).
 *
 * @example
 * import { isSubscribed } from '@gridforge/sdk'
 *
 * if (!(await isSubscribed(client, { deployment, sourceId: 7 }))) {
 *   await client.subscribeSources({ sourceIds: [7] })
 * }
 */
export async function isSubscribed(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: IsSubscribedParameters,
): Promise<IsSubscribedReturnType> {
  const action = 'isSubscribed'
  const params = validate(action, schema, parameters)
  const provider = accountAddress(client, action, params.provider, 'provider')
  return read<boolean>(client, {
    action,
    hints: providerRegistryHints,
    address: parameters.deployment.contracts.providers,
    abi: [isSubscribedFunction],
    functionName: 'isSubscribed',
    args: [provider, params.sourceId],
    blockNumber: params.blockNumber,
  })
}
