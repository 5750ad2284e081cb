import type { Account, Address, Chain, Client, Transport } from 'viem'
import { zeroAddress } from 'viem'
import { multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import { market, minProviderStake, owner, pendingOwner } from '../abis/providerRegistry.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetProviderRegistryParamsParameters = DeploymentParameter & {
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

export type GetProviderRegistryParamsReturnType = {
  /** Available stake needed to register, in base units. */
  minProviderStake: bigint
  /** The TaskMarket that updates reputation. */
  market: Address
  /** Who may change `minProviderStake` (a timelock on governed deployments). */
  owner: Address
  /** The owner-to-be of a two-step transfer not yet accepted, if any. */
  pendingOwner: Address | undefined
}

export type GetProviderRegistryParamsErrorType = Error

/**
 * Reads the ProviderRegistry's settings in one call, e.g. how much stake
 * `registerProvider` needs.
 *
 * @example
 * import { formatAmount, getProviderRegistryParams } from '@gridforge/sdk'
 *
 * const { minProviderStake } = await getProviderRegistryParams(client, { deployment })
 * console.log(`stake at least ${formatAmount(minProviderStake)} to register`)
 */
export async function getProviderRegistryParams(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetProviderRegistryParamsParameters,
): Promise<GetProviderRegistryParamsReturnType> {
  const address = parameters.deployment.contracts.providers
  const [minimum, marketAddress, ownerAddress, pending] = await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: [
      { address, abi: [minProviderStake], functionName: 'minProviderStake' },
      { address, abi: [market], functionName: 'market' },
      { address, abi: [owner], functionName: 'owner' },
      { address, abi: [pendingOwner], functionName: 'pendingOwner' },
    ],
    allowFailure: false,
    deployless: client.chain?.contracts?.multicall3 === undefined,
    blockNumber: parameters.blockNumber,
  })
  return {
    minProviderStake: minimum,
    market: marketAddress,
    owner: ownerAddress,
    pendingOwner: pending === zeroAddress ? undefined : pending,
  }
}
