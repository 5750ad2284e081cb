import type { ClaimRefusal } from '@gridforge/sdk'
import { describe, expect, it } from 'vitest'
import { describeRefusals } from './quoteReasons'

const grid = (units: string) => BigInt(Number(units) * 1e6) * 10n ** 12n

describe('describeRefusals', () => {
  it('puts what the task asks against what each provider offers, once per distinct value', () => {
    const vram: ClaimRefusal[] = [
      { reason: 'vram', required: 40_960, offered: 24_576 },
      { reason: 'vram', required: 40_960, offered: 16_384 },
      { reason: 'vram', required: 40_960, offered: 24_576 },
    ]
    expect(describeRefusals(vram, 1)).toBe('the task needs 40960 MiB per GPU, they offer 24576, 16384')
    expect(describeRefusals([{ reason: 'gpuCount', required: 4, offered: 1 }], 1)).toBe(
      'the task needs 4 GPUs, they offer 1',
    )
  })

  it('says in GRID what the price and the collateral fall short of, and what would help', () => {
    expect(describeRefusals([{ reason: 'priceFloor', floor: grid('0.5'), price: grid('0.1') }], 1)).toBe(
      'it pays 0.1 GRID/GPU-s, below their floors (0.5 GRID/GPU-s): raise the max payment',
    )
    // A fixed price over the runtime divides down to 18 decimals: four significant digits are shown.
    expect(
      describeRefusals([{ reason: 'priceFloor', floor: grid('0.01'), price: grid('1') / 300n }], 1),
    ).toBe('it pays 0.003333 GRID/GPU-s, below their floors (0.01 GRID/GPU-s): raise the max payment')
    expect(describeRefusals([{ reason: 'collateral', required: grid('5'), available: grid('2') }], 1)).toBe(
      'a claim locks 5 GRID of stake, they have 2 GRID available: a lower max payment locks less',
    )
  })

  it('names the source a provider is not subscribed to, and the reputation asked for', () => {
    expect(describeRefusals([{ reason: 'notSubscribed' }], 3)).toBe(
      "not in source #3's pool: providers choose the sources they serve",
    )
    expect(
      describeRefusals(
        [{ reason: 'reputation', minCompleted: 10, completed: 2, minSuccessBps: 9_500, successBps: 9_000 }],
        1,
      ),
    ).toBe('the task asks for 10 completed and 95 % success, they have 2 completed, 90 %')
  })
})
