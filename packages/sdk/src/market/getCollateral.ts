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
  /**
   * The task's audit probability in basis points, as the task holds it
   * (`Task.auditBps`, the market's default `auditBps` for a new task that does
   * not ask for more); 0 or omitted for a task that is not audited (replicas >
   * 1, or a source that is not deterministic).
   */
  auditBps?: number | undefined
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
    auditBps: z.optional(s.uint(16, 10_000)),
  })

/**
 * Reads the collateral a provider locks from its stake to claim a task with
 * this `maxPayment`, under the current parameters:
 * `max(minCollateral, maxPayment × collateralBps / 10000)`; for a task audited
 * with probability p = `auditBps` / 10000, at least `(1 − p) / p × maxPayment`
 * and `3 × maxPayment` too, so that cheating does not pay (9 × maxPayment at
 * the default 10 %). Auditors lock the same. A task keeps the collateral fixed
 * when it was submitted.
 *
 * @example
 * import { getCollateral } from '@gridforge/sdk'
 *
 * const collateral = await getCollateral(client, { deployment, maxPayment: '5' }) // 2.5 GRID by default
 * const audited = await getCollateral(client, { deployment, maxPayment: '5', auditBps: 1000 }) // 45 GRID
 */
export async function getCollateral(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetCollateralParameters,
): Promise<GetCollateralReturnType> {
  const { deployment, blockNumber } = parameters
  const action = 'getCollateral'
  const { maxPayment, auditBps } = validate(
    action,
    schema((deployment.token ?? gridToken).decimals),
    parameters,
  )
  return read<bigint>(client, {
    action,
    hints: {},
    address: deployment.contracts.market,
    abi: [collateralFor],
    functionName: 'collateralFor',
    args: [maxPayment, auditBps ?? 0],
    blockNumber,
  })
}
