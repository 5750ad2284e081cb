import type { Account, Address, Chain, Client, Transport } from 'viem'
import { multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import * as z from 'zod/mini'
import { owner as providersOwner, pendingOwner as providersPendingOwner } from '../abis/providerRegistry.js'
import { owner as stakingOwner, pendingOwner as stakingPendingOwner } from '../abis/staking.js'
import { owner as marketOwner, pendingOwner as marketPendingOwner } from '../abis/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import { validate } from '../internal/validate.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { contractAddress, contractSchema, type OwnableContract } from './contracts.js'

export type GetOwnershipParameters = DeploymentParameter & {
  /** Whose owner to read: `'market'`, `'staking'` or `'providers'`. */
  contract: OwnableContract
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined
}

export interface GetOwnershipReturnType {
  /** The owner; the zero address once ownership was renounced. */
  owner: Address
  /** The account that may call `acceptOwnership`; the zero address when no transfer is pending. */
  pendingOwner: Address
}

export type GetOwnershipErrorType = InvalidParametersErrorType | Error

const items = {
  market: [marketOwner, marketPendingOwner],
  staking: [stakingOwner, stakingPendingOwner],
  providers: [providersOwner, providersPendingOwner],
} as const

const schema = /* @__PURE__ */ z.object({ contract: contractSchema })

/**
 * Reads the owner of a Gridforge contract and the pending owner of a two-step
 * transfer (`Ownable2Step`), in one multicall (a deployless one on chains
 * without Multicall3).
 *
 * @example
 * import { getOwnership } from '@gridforge/sdk'
 *
 * const { owner, pendingOwner } = await getOwnership(client, { deployment, contract: 'market' })
 */
export async function getOwnership(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetOwnershipParameters,
): Promise<GetOwnershipReturnType> {
  const { deployment, blockNumber } = parameters
  const { contract } = validate('getOwnership', schema, parameters)
  const address = contractAddress(deployment, contract)
  const [owner, pendingOwner] = await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: [
      { address, abi: [items[contract][0]], functionName: 'owner' },
      { address, abi: [items[contract][1]], functionName: 'pendingOwner' },
    ],
    allowFailure: false,
    blockNumber,
    deployless: client.chain?.contracts?.multicall3 === undefined,
  })
  return { owner, pendingOwner }
}
