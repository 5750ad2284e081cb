import type { Account, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { collateralFor } from '../abis/taskMarket.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { type Amount, gridToken } from '../utils/amount.js'

export type GetCollateralParameters = DeploymentParameter & {
  /** The per-replica maxPayment of a task, e.g. `'5'` (token units) or a bigint (base units). */
  maxPayment: Amount
  /** Read at this block (default: the latest). */
  blockNumber?: bigint | undefined
}

/** Collateral a claimant of such a task locks, in base units. */
export type GetCollateralReturnType = bigint

export type GetCollateralErrorType = InvalidParametersErrorType | Error

/** The contract's `maxPayment` is a uint96. */
const maxUint96 = 2n ** 96n - 1n

const schema = (decimals: number) =>
  z.object({
    maxPayment: s
      .amount(decimals)
      .check(
        z.refine((value: bigint) => value <= maxUint96, 'must fit in 96 bits (at most 2^96 − 1 base units)'),
      ),
  })

/**
 * Reads the collateral a provider locks from its stake to claim a task with
 * this `maxPayment`, under the current parameters:
 * `max(minCollateral, maxPayment × collateralBps / 10000)`. A task keeps the
 * collateral fixed when it was submitted.
 *
 * @example
 * import { getCollateral } from '@gridforge/sdk'
 *
 * const collateral = await getCollateral(client, { deployment, maxPayment: '5' }) // 2.5 GRID by default
 */
export async function getCollateral(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetCollateralParameters,
): Promise<GetCollateralReturnType> {
  const { deployment, blockNumber } = parameters
  const action = 'getCollateral'
  const { maxPayment } = validate(action, schema((deployment.token ?? gridToken).decimals), parameters)
  return read<bigint>(client, {
    action,
    hints: {},
    address: deployment.contracts.market,
    abi: [collateralFor],
    functionName: 'collateralFor',
    args: [maxPayment],
    blockNumber,
  })
}
