import type { Account, Address, Chain, Client, Transport } from 'viem'
import { zeroAddress } from 'viem'
import { multicall } from 'viem/actions'
import { getAction } from 'viem/utils'
import {
  asset,
  market,
  owner,
  pendingOwner,
  rewardPerToken,
  rewardsReserve,
  totalStaked,
  totalUnbonding,
  unbondingPeriod,
} from '../abis/staking.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetStakingParamsParameters = DeploymentParameter & {
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** Staking's settings and totals; amounts in base units. */
export type GetStakingParamsReturnType = {
  /** The token staked and paid out. */
  asset: Address
  /** The TaskMarket allowed to lock, unlock and slash. */
  market: Address
  /** Who may change the settings (a timelock on governed deployments). */
  owner: Address
  /** The owner-to-be of a two-step transfer not yet accepted, if any. */
  pendingOwner: Address | undefined
  /** How long unbonding stake waits before it can be withdrawn, in seconds. */
  unbondingPeriodSec: number
  /** Sum of all stakes, locked collateral included. */
  totalStaked: bigint
  /** Sum of all unbonding amounts. */
  totalUnbonding: bigint
  /** Revenue share received and not yet claimed. */
  rewardsReserve: bigint
  /** Accumulated rewards per staked token, scaled by 1e18. */
  rewardPerToken: bigint
}

export type GetStakingParamsErrorType = Error

/**
 * Reads Staking's settings and totals in one call.
 *
 * @example
 * import { formatAmount, formatDuration, getStakingParams } from '@gridforge/sdk'
 *
 * const { unbondingPeriodSec, totalStaked } = await getStakingParams(client, { deployment })
 * console.log(`${formatAmount(totalStaked)} staked; unbonding takes ${formatDuration(unbondingPeriodSec)}`)
 */
export async function getStakingParams(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetStakingParamsParameters,
): Promise<GetStakingParamsReturnType> {
  const address = parameters.deployment.contracts.staking
  const call = <const fn extends { name: string }>(fn: fn) => ({ address, abi: [fn], functionName: fn.name })
  const results = await getAction(
    client,
    multicall,
    'multicall',
  )({
    contracts: [
      call(asset),
      call(market),
      call(owner),
      call(pendingOwner),
      call(unbondingPeriod),
      call(totalStaked),
      call(totalUnbonding),
      call(rewardsReserve),
      call(rewardPerToken),
    ] as never,
    allowFailure: false,
    deployless: client.chain?.contracts?.multicall3 === undefined,
    blockNumber: parameters.blockNumber,
  })
  const [assetAddress, marketAddress, ownerAddress, pending, period, staked, unbonding, reserve, perToken] =
    results as unknown as [Address, Address, Address, Address, number, bigint, bigint, bigint, bigint]
  return {
    asset: assetAddress,
    market: marketAddress,
    owner: ownerAddress,
    pendingOwner: pending === zeroAddress ? undefined : pending,
    unbondingPeriodSec: period,
    totalStaked: staked,
    totalUnbonding: unbonding,
    rewardsReserve: reserve,
    rewardPerToken: perToken,
  }
}
