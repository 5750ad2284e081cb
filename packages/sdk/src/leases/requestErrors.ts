import { ERC20InsufficientAllowance, ERC20InsufficientBalance } from '../abis/gridToken.js'
import {
  LeaseMarketAcceptByOutOfBounds,
  LeaseMarketDepositTooSmall,
  LeaseMarketDurationOutOfBounds,
  LeaseMarketPenaltyTooLarge,
  LeaseMarketSourceInactive,
  LeaseMarketUptimeOutOfBounds,
  LeaseMarketZeroPrice,
} from '../abis/leaseMarket.js'
import { SourceRegistryUnknownSource } from '../abis/sourceRegistry.js'

/**
 * Every custom error a lease request can revert with (LeaseMarket's checks,
 * the source lookup, the token pull), and no more: the ABI items bundled with
 * `requestLease`. Any other revert still surfaces as a ContractRevertedError
 * with its raw data.
 */
export const leaseRequestErrors = [
  LeaseMarketZeroPrice,
  LeaseMarketDurationOutOfBounds,
  LeaseMarketPenaltyTooLarge,
  LeaseMarketUptimeOutOfBounds,
  LeaseMarketAcceptByOutOfBounds,
  LeaseMarketDepositTooSmall,
  LeaseMarketSourceInactive,
  SourceRegistryUnknownSource,
  ERC20InsufficientAllowance,
  ERC20InsufficientBalance,
] as const
