import { describe, expect, it } from 'vitest'
import { gpuSecondsOf, splitFee } from './fees.js'

describe('splitFee', () => {
  it('splits as TaskMarket._payReplica does: rebate first, then creator and stakers of the rest, treasury the remainder', () => {
    // 5 GRID at 5 %: a fee of 0.25 GRID; a 10 % rebate, 10 % to the creator and 12 % to stakers of the rest.
    const fee = 250_000_000_000_000_000n
    expect(splitFee(fee, { discountBps: 1_000, creatorFeeBps: 1_000, stakerShareBps: 1_200 })).toEqual({
      rebate: 25_000_000_000_000_000n,
      toCreator: 22_500_000_000_000_000n,
      toStakers: 27_000_000_000_000_000n,
      toTreasury: 175_500_000_000_000_000n,
    })
  })

  it('rounds each share down and leaves the dust to the treasury', () => {
    expect(splitFee(7n, { discountBps: 0, creatorFeeBps: 5_000, stakerShareBps: 3_333 })).toEqual({
      rebate: 0n,
      toCreator: 3n,
      toStakers: 2n,
      toTreasury: 2n,
    })
  })
})

describe('gpuSecondsOf', () => {
  it('is the runtime times the GPUs the task asks for, at least one GPU and at least one GPU-second', () => {
    expect(gpuSecondsOf(30, 2)).toBe(60)
    expect(gpuSecondsOf(30, 0)).toBe(30)
    expect(gpuSecondsOf(0, 4)).toBe(1)
  })
})
