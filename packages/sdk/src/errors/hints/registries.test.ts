import { describe, expect, it } from 'vitest'
import { errors as providerRegistryErrors } from '../../abis/providerRegistry.js'
import { errors } from '../../abis/sourceRegistry.js'
import { gridToken } from '../../utils/amount.js'
import { providerRegistryHints, sourceRegistryHints } from './registries.js'

describe('sourceRegistryHints', () => {
  it('has a hint for every error the source registry can revert with', () => {
    const names: string[] = errors.map((error) => error.name)
    expect(names.filter((name) => sourceRegistryHints[name] === undefined)).toEqual([])
    expect(Object.keys(sourceRegistryHints).filter((name) => !names.includes(name))).toEqual([])
  })

  it('gives every hint a sentence from typical arguments', () => {
    for (const [name, hint] of Object.entries(sourceRegistryHints)) {
      const text = hint([12, 3n, 4n], { token: gridToken })
      expect(text, name).toMatch(/^\S.{10,}$/)
      expect(text, name).not.toContain('undefined')
    }
  })

  it('says what a failure fee and a validator may be', () => {
    expect(sourceRegistryHints.SourceRegistryFailureFeeTooHigh!([12_000], { token: gridToken })).toBe(
      'failureFeeBps 12000 is more than the whole price: pass 0 to 10000 (basis points of a fixed price paid for a failed run)',
    )
    expect(sourceRegistryHints.SourceRegistryInvalidValidator!([4], { token: gridToken })).toBe(
      "source 4 cannot validate this source: a validator must be a published, deterministic source whose maxRuntimeSec is no longer than this one's (check it with getSource), or 0 for none",
    )
  })
})

describe('providerRegistryHints', () => {
  it('has a hint for every error the provider registry can revert with', () => {
    const names: string[] = providerRegistryErrors.map((error) => error.name)
    expect(names.filter((name) => providerRegistryHints[name] === undefined)).toEqual([])
    expect(Object.keys(providerRegistryHints).filter((name) => !names.includes(name))).toEqual([])
  })

  it('names the bound of minRecordPayment', () => {
    expect(
      providerRegistryHints.ProviderRegistryMinRecordPaymentOutOfBounds!([10n ** 28n, 10n ** 27n], {
        token: gridToken,
      }),
    ).toBe(
      "minRecordPayment must be at most 1000000000 GRID (the least payment a completion needs to count in a provider's record)",
    )
  })
})
