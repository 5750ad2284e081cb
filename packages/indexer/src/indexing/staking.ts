/** Staking: each account's stake, collateral, unbonding, withdrawals, slashes and claimed rewards. */
import { ponder } from 'ponder:registry'
import { changeStake, setMarket } from './records.js'

const at = (event: { block: { timestamp: bigint } }) => Number(event.block.timestamp)

ponder.on('Staking:Staked', async ({ event, context }) => {
  const { account, amount } = event.args
  await changeStake(context.db, account, at(event), (row) => ({ staked: row.staked + amount }))
})

ponder.on('Staking:UnbondRequested', async ({ event, context }) => {
  const { account, amount, totalUnbonding, readyAt } = event.args
  await changeStake(context.db, account, at(event), (row) => ({
    staked: row.staked - amount,
    unbonding: totalUnbonding,
    unbondingReadyAt: readyAt,
  }))
})

ponder.on('Staking:UnbondedWithdrawn', async ({ event, context }) => {
  const { account, amount } = event.args
  await changeStake(context.db, account, at(event), (row) => ({
    unbonding: row.unbonding - amount,
    unbondingReadyAt: row.unbonding - amount === 0n ? null : row.unbondingReadyAt,
    withdrawn: row.withdrawn + amount,
  }))
})

ponder.on('Staking:CollateralLocked', async ({ event, context }) => {
  const { account, amount } = event.args
  await changeStake(context.db, account, at(event), (row) => ({ locked: row.locked + amount }))
})

ponder.on('Staking:CollateralUnlocked', async ({ event, context }) => {
  const { account, amount } = event.args
  await changeStake(context.db, account, at(event), (row) => ({ locked: row.locked - amount }))
})

// Locked collateral leaves the stake for the market.
ponder.on('Staking:Slashed', async ({ event, context }) => {
  const { account, amount } = event.args
  await changeStake(context.db, account, at(event), (row) => ({
    staked: row.staked - amount,
    locked: row.locked - amount,
    slashed: row.slashed + amount,
  }))
})

ponder.on('Staking:RewardsClaimed', async ({ event, context }) => {
  const { account, amount } = event.args
  await changeStake(context.db, account, at(event), (row) => ({
    rewardsClaimed: row.rewardsClaimed + amount,
  }))
})

ponder.on('Staking:UnbondingPeriodUpdated', async ({ event, context }) => {
  await setMarket(context.db, { unbondingPeriod: event.args.unbondingPeriod })
})
