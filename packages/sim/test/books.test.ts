import { createPublicClient, custom } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Session } from '../src/experiment.js'
import { runMarket } from '../src/market/run.js'
import type { World } from '../src/market/world.js'
import { reconcile } from '../src/reconcile.js'
import { strategies } from '../src/strategies/index.js'
import { openSession, smallParams } from './setup.js'

let session: Session
let world: World
const params = smallParams()
beforeAll(async () => {
  session = await openSession()
  world = await session.world(params)
})
afterAll(() => session?.close())

/** Seats taken from a worse ticket in the runs (ClaimReplaced: the replaced claimant's collateral is unlocked). */
let replacements = 0

describe('the books', () => {
  it.each([{ name: 'everybody honest', deviate: undefined }, ...strategies])(
    'equal the chain to the wei after a run: $name',
    async (strategy) => {
      const deviation = strategy.deviate?.(world.cast, params)
      const record = await runMarket(world, params, 3, deviation)
      replacements += record.tasks.reduce((n, t) => n + (t.race?.replaced ?? 0), 0)
      const { providers, clients, spare } = world.cast
      const client = createPublicClient({ transport: custom(world.chain.provider) })
      const mismatches = await reconcile(client, world.chain.contracts, record.ledger, [
        ...providers,
        ...clients,
        ...spare,
      ])
      expect(mismatches).toEqual([])
      expect(record.transactions).toBeGreaterThan(params.tasks)
    },
  )

  it('followed the unlocks of claims replaced in seat races', () => {
    expect(replacements).toBeGreaterThan(0)
  })
})
