import type { Account, Chain, Client, Transport } from 'viem'
import { pendingStakerFees } from '../abis/taskMarket.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetPendingStakerFeesParameters = DeploymentParameter & {
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined
}

/** Stakers' share of fees held by the market until Staking pulls it, in base units. */
export type GetPendingStakerFeesReturnType = bigint

export type GetPendingStakerFeesErrorType = Error

/**
 * Reads the stakers' share of protocol fees that the market still holds;
 * Staking pulls it into its reward pool on the next stake action or
 * `claimRewards`.
 *
 * @example
 * import { getPendingStakerFees } from '@gridforge/sdk'
 *
 * const pending = await getPendingStakerFees(client, { deployment })
 */
export async function getPendingStakerFees(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { deployment, blockNumber }: GetPendingStakerFeesParameters,
): Promise<GetPendingStakerFeesReturnType> {
  return read<bigint>(client, {
    action: 'getPendingStakerFees',
    hints: {},
    address: deployment.contracts.market,
    abi: [pendingStakerFees],
    functionName: 'pendingStakerFees',
    blockNumber,
  })
}
