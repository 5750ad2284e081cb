import { amountArg, type RevertHints } from '../contract.js'

/**
 * What to do about the errors a lease request can revert with that the SDK
 * cannot rule out before sending (price, duration, penalty, uptime,
 * acceptance time and the deposit's minimum are refused by validation
 * first). Kept apart from the other LeaseMarket hints so that `requestLease`
 * bundles only these; `leaseMarketHints` includes them.
 */
export const leaseRequestHints = {
  LeaseMarketDepositTooSmall: ([deposit, needed], { token }) =>
    `a deposit of ${amountArg(deposit, token)} is less than the ${amountArg(needed, token)} needed (maxPricePerSec × ackGrace): deposit more or ask for a lower price`,
  LeaseMarketSourceInactive: ([sourceId]) =>
    `source ${sourceId} is deactivated: lease an active source, or ask its owner to reactivate it`,
  SourceRegistryUnknownSource: ([sourceId]) =>
    `source ${sourceId} does not exist: check the id and the deployment`,
  ERC20InsufficientAllowance: ([, allowance, needed], { token }) =>
    `the lease market may pull ${amountArg(allowance, token)} < ${amountArg(needed, token)}: approveLeaseMarket first, or use the permit variant`,
  ERC20InsufficientBalance: ([, balance, needed], { token }) =>
    `the wallet holds ${amountArg(balance, token)} < ${amountArg(needed, token)}: get more tokens or deposit less`,
} satisfies RevertHints
