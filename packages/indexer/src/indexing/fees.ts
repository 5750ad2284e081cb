/** What a payment splits into and what it bought: the contract's arithmetic, mirrored (pure, so tested alone). */

const BPS = 10_000n

/**
 * How a fee is split, as TaskMarket splits it when it pays a replica: the
 * client's rebate (its staking discount), then of the rest the source owner's
 * share, the stakers' share and the treasury's remainder.
 */
export function splitFee(
  fee: bigint,
  terms: { discountBps: number; creatorFeeBps: number; stakerShareBps: number },
) {
  const rebate = (fee * BigInt(terms.discountBps)) / BPS
  const net = fee - rebate
  const toCreator = (net * BigInt(terms.creatorFeeBps)) / BPS
  const toStakers = (net * BigInt(terms.stakerShareBps)) / BPS
  return { rebate, toCreator, toStakers, toTreasury: net - toCreator - toStakers }
}

/** GPU-seconds a payment bought: max(runtimeSec × max(minGpus, 1), 1). */
export function gpuSecondsOf(runtimeSec: number, minGpus: number): number {
  return Math.max(runtimeSec * Math.max(minGpus, 1), 1)
}
