import { describe, expect, it } from 'vitest'
import { type ClaimantState, type ClaimTerms, claimRefusals } from './claimRefusals.js'
import { pricePerGpuSecond } from './pricePerGpuSecond.js'

const provider: ClaimantState = {
  provider: '0x00000000000000000000000000000000000000a1',
  paused: false,
  subscribed: true,
  gpuCount: 2,
  vramMiB: 24_576,
  computeCapability: 89,
  completed: 10,
  successBps: 9_000,
  priceFloor: 100n,
  availableStake: 1_000n,
}

const terms: ClaimTerms = {
  requirements: { minGpus: 2, minVramMiB: 24_576, minComputeCapability: 89 },
  gates: { minSuccessBps: 9_000, minCompleted: 10 },
  collateral: 1_000n,
  pricePerGpuSecond: 100n,
}

describe('claimRefusals', () => {
  it('refuses nothing when every check passes with nothing to spare', () => {
    expect(claimRefusals(provider, terms)).toEqual([])
  })

  it('names every failing dimension, in the order the market checks them', () => {
    expect(
      claimRefusals(
        {
          ...provider,
          paused: true,
          subscribed: false,
          completed: 9,
          availableStake: 999n,
          priceFloor: 101n,
        },
        { ...terms, claimants: ['0x00000000000000000000000000000000000000A1'] },
      ),
    ).toEqual([
      { reason: 'paused' },
      { reason: 'notSubscribed' },
      { reason: 'reputation', minCompleted: 10, completed: 9, minSuccessBps: 9_000, successBps: 9_000 },
      { reason: 'collateral', required: 1_000n, available: 999n },
      { reason: 'priceFloor', floor: 101n, price: 100n },
      // Addresses compare whatever their case.
      { reason: 'alreadyClaimed' },
    ])
  })

  it('fails a success rate below the gate, and passes any record without gates', () => {
    expect(claimRefusals({ ...provider, successBps: 8_999 }, terms).map((refusal) => refusal.reason)).toEqual(
      ['reputation'],
    )
    expect(
      claimRefusals(
        { ...provider, completed: 0, successBps: 0 },
        { ...terms, gates: { minSuccessBps: 0, minCompleted: 0 } },
      ),
    ).toEqual([])
  })
})

describe('pricePerGpuSecond', () => {
  it('prices a metered task by its rate and a fixed price over its longest run, per GPU (at least one)', () => {
    const requirements = { minGpus: 4, maxRuntimeSec: 100 }
    expect(pricePerGpuSecond({ maxPayment: 10_000n, pricePerSecond: 40n, requirements })).toBe(10n)
    expect(pricePerGpuSecond({ maxPayment: 10_000n, pricePerSecond: 0n, requirements })).toBe(25n)
    expect(
      pricePerGpuSecond({
        maxPayment: 10_000n,
        pricePerSecond: 0n,
        requirements: { minGpus: 0, maxRuntimeSec: 0 },
      }),
    ).toBe(10_000n)
  })
})
