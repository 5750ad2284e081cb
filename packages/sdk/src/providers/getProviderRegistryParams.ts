import type { Account, Address, Chain, Client, Transport } from 'viem'
import { zeroAddress } from 'viem'
import { multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import { market, minProviderStake, minRecordPayment, owner, pendingOwner } from '../abis/providerRegistry.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetProviderRegistryParamsParameters = DeploymentParameter & {
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

export type GetProviderRegistryParamsReturnType = {
  /** Available stake needed to register, in base units. */
  minProviderStake: bigint
  /**
   * The least payment a completed slot needs to count in a provider's
   * `completed` record (and so in reputation gates), in base units: a
   * thousandth of `minProviderStake` unless the owner set it
   * (`setMinRecordPayment`). Smaller work is paid but does not vouch for the
   * provider.
   */
  minRecordPayment: bigint
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
 * `registerProvider` needs, and the least payment a completion needs to count
 * in a provider's record.
 *
 * @example
 * import { formatAmount, getProviderRegistryParams } from '@gridforge/sdk'
 *
 * const { minProviderStake, minRecordPayment } = await getProviderRegistryParams(client, { deployment })
 * console.log(`stake at least ${formatAmount(minProviderStake)} to register`)
 * console.log(`tasks paying less than ${formatAmount(minRecordPayment)} build no record`)
 */
export async function getProviderRegistryParams(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetProviderRegistryParamsParameters,
): Promise<GetProviderRegistryParamsReturnType> {
  const address = parameters.deployment.contracts.providers
  const [minimum, recordPayment, marketAddress, ownerAddress, pending] = await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: [
      { address, abi: [minProviderStake], functionName: 'minProviderStake' },
      { address, abi: [minRecordPayment], functionName: 'minRecordPayment' },
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
    minRecordPayment: recordPayment,
    market: marketAddress,
    owner: ownerAddress,
    pendingOwner: pending === zeroAddress ? undefined : pending,
  }
}
