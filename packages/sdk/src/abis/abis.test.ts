import { describe, expect, it } from 'vitest'
import { contractAbis, stripInternalTypes } from '../../scripts/renderAbis.js'
import * as gridToken from './gridToken.js'
import * as leaseMarket from './leaseMarket.js'
import * as providerRegistry from './providerRegistry.js'
import * as sourceRegistry from './sourceRegistry.js'
import * as staking from './staking.js'
import * as taskMarket from './taskMarket.js'

const modules: Record<string, Record<string, unknown>> = {
  gridToken,
  sourceRegistry,
  staking,
  providerRegistry,
  taskMarket,
  leaseMarket,
}

describe('split ABIs', () => {
  for (const [name, abi] of Object.entries(contractAbis)) {
    it(`${name} matches @gridforge/contracts (else run pnpm --filter @gridforge/sdk generate)`, () => {
      const module = modules[name]!
      const expected: Record<string, unknown> = {
        errors: abi.filter((item) => item.type === 'error').map(stripInternalTypes),
      }
      for (const item of abi) {
        if (item.type === 'function' || item.type === 'event' || item.type === 'error') {
          expected[item.name] = stripInternalTypes(item)
        }
      }
      expect({ ...module }).toEqual(expected)
    })
  }
})
