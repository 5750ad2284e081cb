import { formatDuration } from '../../utils/duration.js'
import { amountArg, type RevertHints } from '../contract.js'

const isoDate = (seconds: unknown) => new Date(Number(seconds) * 1000).toISOString()

/** What to do about each Staking error. */
export const stakingHints: RevertHints = {
  StakingInsufficientAvailable: ([, available, needed], { token }) =>
    `available stake ${amountArg(available, token)} < ${amountArg(needed, token)} needed: stake more, or wait for locked collateral to unlock`,
  StakingZeroAmount: () => 'the amount must be greater than zero',
  StakingAmountTooLarge: () => 'the amount does not fit the contract (128 bits): use a smaller amount',
  StakingNoRewards: () =>
    'there are no rewards to claim yet: rewards come from protocol fees of settled tasks',
  StakingNothingUnbonding: () => 'nothing is unbonding: request an unbond first',
  StakingUnbondingNotReady: ([readyAt]) => `the unbonded stake can be withdrawn after ${isoDate(readyAt)}`,
  StakingUnbondingPeriodOutOfBounds: ([, min, max]) =>
    `the unbonding period must be from ${formatDuration(Number(min))} to ${formatDuration(Number(max))}`,
  StakingTooManyTiers: ([count, max]) => `${count} discount tiers: pass at most ${max}`,
  StakingInvalidTier: ([index]) =>
    `discount tier ${index}: minStake must be above zero and above the previous tier's, discountBps at most 5000 and not below the previous tier's`,
  StakingNotMarket: () =>
    'only the TaskMarket (and the LeaseMarket, once named) can lock, unlock or slash stake',
  StakingLeaseMarketAlreadySet: ([leaseMarket]) =>
    `the lease market is already ${leaseMarket} and is set once: deploy a new system to use another`,
  StakingNotLeaseMarket: ([account]) =>
    `${account} is not a LeaseMarket built on this Staking: deploy LeaseMarket(taskMarket, owner, params) and name that`,
  StakingZeroAddress: () => 'an address must not be zero',
  OwnableUnauthorizedAccount: ([account]) =>
    `${account} is not the owner of the contract: send this from the owner (the timelock on governed deployments)`,
}

/**
 * What to do about the token's errors (OpenZeppelin ERC-20 and EIP-2612), which
 * surface through the market and Staking when they pull tokens.
 */
export const tokenHints: RevertHints = {
  ERC20InsufficientAllowance: ([spender, allowance, needed], { token }) =>
    `allowance of ${spender} is ${amountArg(allowance, token)} < ${amountArg(needed, token)} needed: pass approve: true (an approve transaction first) or permit: true; a permit the token refused (wrong signer, expired, nonce used) leaves the allowance short`,
  ERC20InsufficientBalance: ([sender, balance, needed], { token }) =>
    `token balance of ${sender} is ${amountArg(balance, token)} < ${amountArg(needed, token)} needed: get more ${token.symbol} first`,
  ERC20InvalidSpender: () => 'the spender must not be the zero address',
  ERC20InvalidReceiver: () => 'the receiver must not be the zero address',
  ERC2612InvalidSigner: ([signer, owner]) =>
    `the permit was signed by ${signer}, not by its owner ${owner}: sign it with the sending account`,
  ERC2612ExpiredSignature: ([deadline]) => `the permit expired at ${isoDate(deadline)}: sign a new one`,
  InvalidAccountNonce: ([account, nonce]) =>
    `the permit's nonce was already used: sign a new one (next nonce of ${account} is ${nonce})`,
  SafeERC20FailedOperation: ([token]) =>
    `the token ${token} refused the transfer: check the balance and the allowance`,
}
