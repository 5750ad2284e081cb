import type { Account, Chain, Client, Transport } from 'viem'
import { discountTiers } from '../abis/staking.js'
import { stakingHints } from '../errors/hints/staking.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

/** A client fee discount for accounts whose stake is at least `minStake`. */
export interface DiscountTier {
  /** Least stake, in base units. */
  minStake: bigint
  /** Share of the protocol fee given back, in basis points. */
  discountBps: number
}

export type GetDiscountTiersParameters = DeploymentParameter & {
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** The tiers by increasing stake; empty when there are no discounts. */
export type GetDiscountTiersReturnType = DiscountTier[]

export type GetDiscountTiersErrorType = Error

/**
 * Reads the fee-discount tiers: a client whose stake reaches a tier's
 * `minStake` gets its `discountBps` of the protocol fee back.
 *
 * @example
 * import { formatAmount, getDiscountTiers } from '@gridforge/sdk'
 *
 * for (const tier of await getDiscountTiers(client, { deployment })) {
 *   console.log(`stake ${formatAmount(tier.minStake)}: ${tier.discountBps / 100}% off fees`)
 * }
 */
export async function getDiscountTiers(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetDiscountTiersParameters,
): Promise<GetDiscountTiersReturnType> {
  const tiers = await read<readonly DiscountTier[]>(client, {
    action: 'getDiscountTiers',
    hints: stakingHints,
    address: parameters.deployment.contracts.staking,
    abi: [discountTiers],
    functionName: 'discountTiers',
    blockNumber: parameters.blockNumber,
  })
  return tiers.map(({ minStake, discountBps }) => ({ minStake, discountBps }))
}
