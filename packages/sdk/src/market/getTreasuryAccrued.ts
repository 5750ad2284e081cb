import type { Account, Chain, Client, Transport } from 'viem'
import { treasuryAccrued } from '../abis/taskMarket.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'

export type GetTreasuryAccruedParameters = DeploymentParameter & {
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined
}

/** Treasury fees and slashes accrued in the market and not yet withdrawn, in base units. */
export type GetTreasuryAccruedReturnType = bigint

export type GetTreasuryAccruedErrorType = Error

/**
 * Reads the treasury's fees and slash shares held by the market until
 * {@link withdrawTreasury} sends them.
 *
 * @example
 * import { getTreasuryAccrued } from '@gridforge/sdk'
 *
 * const accrued = await getTreasuryAccrued(client, { deployment })
 */
export async function getTreasuryAccrued(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  { deployment, blockNumber }: GetTreasuryAccruedParameters,
): Promise<GetTreasuryAccruedReturnType> {
  return read<bigint>(client, {
    action: 'getTreasuryAccrued',
    hints: {},
    address: deployment.contracts.market,
    abi: [treasuryAccrued],
    functionName: 'treasuryAccrued',
    blockNumber,
  })
}
