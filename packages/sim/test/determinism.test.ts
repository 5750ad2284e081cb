import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runExperiment, type Session, strategiesBeatingHonest } from '../src/experiment.js'
import { honestBehaviours } from '../src/market/run.js'
import { copycatStrategy } from '../src/strategies/copycat.js'
import { lazyProviderStrategy } from '../src/strategies/lazyProvider.js'
import type { ProviderBehaviour } from '../src/strategies/types.js'
import { vetoingClientStrategy } from '../src/strategies/vetoingClient.js'
import { openSession, smallParams } from './setup.js'

let session: Session
beforeAll(async () => {
  session = await openSession()
})
afterAll(() => session?.close())

describe('runExperiment', () => {
  it('gives the same table for the same seeds', async () => {
    const options = {
      params: smallParams(),
      seeds: [7, 8],
      strategies: [lazyProviderStrategy, vetoingClientStrategy],
    }
    const first = await runExperiment(session, options)
    const second = await runExperiment(session, options)
    expect(second.outcomes.map((o) => o.row)).toEqual(first.outcomes.map((o) => o.row))
    expect(second.outcomes.map((o) => o.samples)).toEqual(first.outcomes.map((o) => o.samples))
    // Different seeds are different markets.
    const other = await runExperiment(session, { ...options, seeds: [9, 10] })
    expect(other.outcomes.map((o) => o.samples.map((s) => s.relative))).not.toEqual(
      first.outcomes.map((o) => o.samples.map((s) => s.relative)),
    )
  })

  it('gives the same samples on a fresh chain (block hashes, which audit draws read, do not follow the clock)', async () => {
    const options = {
      params: smallParams({ auditBps: 5_000 }),
      seeds: [7],
      strategies: [lazyProviderStrategy],
    }
    const first = await runExperiment(session, options)
    const fresh = await openSession()
    try {
      const second = await runExperiment(fresh, options)
      expect(second.outcomes.map((o) => o.samples)).toEqual(first.outcomes.map((o) => o.samples))
      expect(second.audits).toEqual(first.audits)
    } finally {
      await fresh.close()
    }
  })

  it('fails the check when the honest provider it compares with is broken', async () => {
    // Broken on purpose: runs every task three times over (and pays for it).
    const wasteful = (): ProviderBehaviour => {
      const honest = honestBehaviours.provider()
      return {
        ...honest,
        deliver: (context) => {
          const delivery = honest.deliver(context)
          return { ...delivery, computeSec: delivery.computeSec * 3 }
        },
      }
    }
    const options = { params: smallParams(), seeds: [1, 2, 3], strategies: [copycatStrategy] }
    const sound = await runExperiment(session, options)
    expect(strategiesBeatingHonest(sound)).toEqual([])
    const broken = await runExperiment(session, {
      ...options,
      honest: { ...honestBehaviours, provider: wasteful },
    })
    expect(strategiesBeatingHonest(broken)).toEqual(['copycat'])
  })
})
