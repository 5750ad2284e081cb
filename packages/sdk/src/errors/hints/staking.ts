import { amountArg, type RevertHints } from '../contract.js'

/** What to do about each Staking error. */
export const stakingHints: RevertHints = {
  StakingInsufficientAvailable: ([, available, needed], { token }) =>
    `available stake ${amountArg(available, token)} < ${amountArg(needed, token)} needed: stake more, or wait for locked collateral to unlock`,
  StakingZeroAmount: () => 'the amount must be greater than zero',
  StakingAmountTooLarge: () => 'the amount does not fit the contract: use a smaller amount',
  StakingNoRewards: () => 'there are no rewards to claim yet',
  StakingNothingUnbonding: () => 'nothing is unbonding: request an unbond first',
  StakingUnbondingNotReady: ([readyAt]) =>
    `the unbonded stake can be withdrawn after ${new Date(Number(readyAt) * 1000).toISOString()}`,
}
