import type { Abi } from 'viem'
import { errors as tokenErrors } from '../abis/gridToken.js'
import { errors as leaseMarketErrors } from '../abis/leaseMarket.js'
import type { RevertHints } from '../errors/contract.js'
import { leaseMarketHints } from '../errors/hints/leaseMarket.js'
import { leaseRequestHints } from '../errors/hints/leaseRequest.js'
import { tokenHints } from '../errors/hints/staking.js'

/**
 * The lease market's hints, and the token's: a deposit or a top-up pulls
 * tokens, so an allowance or a permit that falls short reverts in the token.
 */
export const leaseHints: RevertHints = { ...tokenHints, ...leaseRequestHints, ...leaseMarketHints }

/** Every error a lease market write can revert with, and the hints: what most lease actions decode. */
export const allLeaseErrors = {
  errors: [...leaseMarketErrors, ...tokenErrors] as Abi,
  hints: leaseHints,
}
