import { describe, expect, it } from 'vitest'
import { deployment, fundedClient } from '../../test/chain.js'
import { InvalidParametersError } from '../errors/validation.js'
import { deactivateSource } from './deactivateSource.js'
import { listSources } from './listSources.js'
import { publishSource } from './publishSource.js'
import { transferSource } from './transferSource.js'

const metadata = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'

describe('listSources', () => {
  it("lists an owner's sources in their current state: published, received, not given away", async () => {
    const alice = await fundedClient({ grid: '0' })
    const bob = await fundedClient({ grid: '0' })
    const publish = (client: typeof alice, byte: string) =>
      publishSource(client, { deployment: deployment(), imageDigest: `0x${byte.repeat(32)}`, metadata })
    const kept = await publish(alice, 'a1')
    const deactivated = await publish(alice, 'a2')
    const givenAway = await publish(alice, 'a3')
    const received = await publish(bob, 'b1')
    await deactivateSource(alice, { deployment: deployment(), sourceId: deactivated.sourceId })
    await transferSource(alice, {
      deployment: deployment(),
      sourceId: givenAway.sourceId,
      to: bob.account.address,
    })
    await transferSource(bob, {
      deployment: deployment(),
      sourceId: received.sourceId,
      to: alice.account.address,
    })

    // A small block range forces several eth_getLogs pages.
    const all = await listSources(alice, {
      deployment: deployment(),
      owner: alice.account.address,
      blockRange: 3n,
    })
    expect(all.map((source) => source.sourceId)).toEqual([
      kept.sourceId,
      deactivated.sourceId,
      received.sourceId,
    ])
    expect(all.every((source) => source.owner === alice.account.address)).toBe(true)
    expect(all.map((source) => source.active)).toEqual([true, false, true])
    expect(all[0]).toMatchObject({ imageDigest: `0x${'a1'.repeat(32)}`, metadata })

    const active = await listSources(alice, {
      deployment: deployment(),
      owner: alice.account.address,
      active: true,
    })
    expect(active.map((source) => source.sourceId)).toEqual([kept.sourceId, received.sourceId])
    const inactive = await listSources(alice, {
      deployment: deployment(),
      owner: alice.account.address,
      active: false,
    })
    expect(inactive.map((source) => source.sourceId)).toEqual([deactivated.sourceId])
  })

  it('lists everything published in a block range, in its state at the last block', async () => {
    const client = await fundedClient({ grid: '0' })
    const first = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `0x${'c1'.repeat(32)}`,
      metadata,
    })
    const second = await publishSource(client, {
      deployment: deployment(),
      imageDigest: `0x${'c2'.repeat(32)}`,
      metadata,
    })
    await deactivateSource(client, { deployment: deployment(), sourceId: first.sourceId })
    const sources = await listSources(client, {
      deployment: deployment(),
      fromBlock: first.blockNumber,
      toBlock: second.blockNumber,
    })
    expect(sources.map((source) => source.sourceId)).toEqual([first.sourceId, second.sourceId])
    // At toBlock the first source was still active.
    expect(sources[0]?.active).toBe(true)
    const everything = await listSources(client, { deployment: deployment() })
    expect(everything.map((source) => source.sourceId)).toEqual(
      expect.arrayContaining([first.sourceId, second.sourceId]),
    )
    expect(everything.find((source) => source.sourceId === first.sourceId)?.active).toBe(false)
    const ids = everything.map((source) => source.sourceId)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
  })

  // A deployless Multicall3 call breaks at about 20 reads (init code and return data are size-capped): a regression
  // seen once other test files had published 66 sources on the shared chain.
  it('lists more sources than one deployless multicall can read', async () => {
    const client = await fundedClient({ grid: '0' })
    const published = []
    for (let index = 0; index < 40; index++) {
      published.push(
        await publishSource(client, {
          deployment: deployment(),
          imageDigest: `0x${(index + 1).toString(16).padStart(64, 'd')}`,
          metadata,
        }),
      )
    }
    const sources = await listSources(client, { deployment: deployment(), owner: client.account.address })
    expect(sources.map((source) => source.sourceId)).toEqual(published.map((source) => source.sourceId))
  })

  it('returns nothing for an owner without sources and refuses bad filters', async () => {
    const client = await fundedClient({ grid: '0' })
    expect(await listSources(client, { deployment: deployment(), owner: client.account.address })).toEqual([])
    const error = await listSources(client, {
      deployment: deployment(),
      owner: 'alice' as never,
      active: 'yes' as never,
      blockRange: 0n,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'owner',
      'active',
      'blockRange',
    ])
  })
})
