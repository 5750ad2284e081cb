import type { Account, Address, Chain, Client, Transport } from 'viem'
import * as z from 'zod/mini'
import { feeDiscountBps } from '../abis/staking.js'
import { stakingHints } from '../errors/hints/staking.js'
import type { InvalidParametersErrorType } from '../errors/validation.js'
import * as s from '../internal/schemas.js'
import { validate } from '../internal/validate.js'
import { read } from '../internal/write.js'
import type { DeploymentParameter } from '../types/deployment.js'
import { accountAddress } from '../wallet/account.js'

export type GetFeeDiscountParameters = DeploymentParameter & {
  /** Whose discount to read (default: the client's account). */
  account?: Address | undefined
  /** Read at this block instead of the latest. */
  blockNumber?: bigint | undefined
}

/** The share of the protocol fee given back to the account as a client, in basis points (0 to 5000). */
export type GetFeeDiscountReturnType = number

export type GetFeeDiscountErrorType = InvalidParametersErrorType | Error

const schema = /* @__PURE__ */ z.object({
  account: z.optional(s.address),
  blockNumber: z.optional(z.bigint()),
})

/**
 * Reads the client fee discount an account gets from its stake: the
 * `discountBps` of the highest tier (see `getDiscountTiers`) its stake reaches.
 *
 * @example
 * import { getFeeDiscount } from '@gridforge/sdk'
 *
 * const bps = await getFeeDiscount(client, { deployment })
 * console.log(`${bps / 100}% of the protocol fee back`)
 */
export async function getFeeDiscount(
  client: Client<Transport, Chain | undefined, Account | undefined>,
  parameters: GetFeeDiscountParameters,
): Promise<GetFeeDiscountReturnType> {
  const { deployment } = parameters
  const action = 'getFeeDiscount'
  const params = validate(action, schema, parameters)
  const account = accountAddress(client, action, params.account)
  return read<number>(client, {
    action,
    hints: stakingHints,
    address: deployment.contracts.staking,
    abi: [feeDiscountBps],
    functionName: 'feeDiscountBps',
    args: [account],
    blockNumber: params.blockNumber,
  })
}
