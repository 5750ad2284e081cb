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

describe('the books', () => {
  it.each([{ name: 'everybody honest', deviate: undefined }, ...strategies])(
    'equal the chain to the wei after a run: $name',
    async (strategy) => {
      const deviation = strategy.deviate?.(world.cast, params)
      const record = await runMarket(world, params, 3, deviation)
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
})
