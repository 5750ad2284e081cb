import { createPublicClient, custom, http } from 'viem'
import { hardhat } from 'viem/chains'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { deployment, devnet, fundedClient } from '../../test/chain.js'
import {
  anyCid,
  cancel,
  claim,
  inputFor,
  publishSource,
  registerFixtureProvider,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { InvalidParametersError } from '../errors/validation.js'
import { resultDigest } from './commitment.js'
import { sealResult } from './seal.js'
import {
  type TaskClaimedEvent,
  type TaskSettledEvent,
  type TaskSubmittedEvent,
  type WatchTasksParameters,
  watchTasks,
} from './watchTasks.js'

const reader = () => createPublicClient({ chain: hardhat, transport: http(devnet().rpcUrl) })

const unwatchers: (() => void)[] = []
afterEach(() => {
  for (const unwatch of unwatchers.splice(0)) unwatch()
})

/** Watches with every callback recording, polling every 50 ms. */
function record(
  filters: Omit<WatchTasksParameters, 'deployment' | 'onSubmitted' | 'onClaimed' | 'onSettled'>,
) {
  const seen = {
    submitted: [] as TaskSubmittedEvent[],
    claimed: [] as TaskClaimedEvent[],
    settled: [] as TaskSettledEvent[],
  }
  unwatchers.push(
    watchTasks(reader(), {
      deployment: deployment(),
      pollingInterval: 50,
      onSubmitted: (event) => seen.submitted.push(event),
      onClaimed: (event) => seen.claimed.push(event),
      onSettled: (event) => seen.settled.push(event),
      ...filters,
    }),
  )
  return seen
}

/** Two clients, a provider subscribed to two sources. */
async function market() {
  const d = deployment()
  const [client, other, provider] = await Promise.all([fundedClient(), fundedClient(), fundedClient()])
  const sourceA = await publishSource(client, d)
  const sourceB = await publishSource(client, d)
  await registerFixtureProvider(provider, d, [sourceA, sourceB])
  return { d, client, other, provider, sourceA, sourceB }
}

// Let the watchers install their filters before the events they must see.
const settle = () => new Promise((resolve) => setTimeout(resolve, 200))

describe('watchTasks', () => {
  it("reports a client's submissions, claims and settlements, and nothing of other clients", async () => {
    const { d, client, other, provider, sourceA } = await market()
    const seen = record({ client: client.account.address })
    await settle()
    const resultKey = `0x${'cd'.repeat(32)}` as const
    const mine = await submitFixtureTasks(client, d, { sourceId: sourceA, count: 2, resultKey })
    const theirs = await submitFixtureTasks(other, d, { sourceId: sourceA })
    const [first = 0n, second = 0n] = mine.taskIds
    await claim(provider, d, theirs.taskIds[0] ?? 0n)
    const claimed = await claim(provider, d, first)
    const { transactionHash } = await submit(provider, d, first)
    await cancel(client, d, second)

    await vi.waitFor(() => expect(seen.settled).toHaveLength(2), { timeout: 10_000 })
    expect(
      seen.submitted.map(({ taskId, client, sourceId, inputCID }) => [taskId, client, sourceId, inputCID]),
    ).toEqual([
      [first, client.account.address, sourceA, inputFor(0)],
      [second, client.account.address, sourceA, inputFor(1)],
    ])
    expect(seen.submitted.map((event) => event.resultKey)).toEqual([resultKey, resultKey])
    expect(seen.submitted[0]?.escrow).toBe(10n ** 18n)
    expect(seen.submitted[0]?.blockNumber).toBe(mine.blockNumber)
    await vi.waitFor(() => expect(seen.claimed).toHaveLength(1))
    expect(seen.claimed[0]).toMatchObject({
      taskId: first,
      provider: provider.account.address,
      slot: claimed.slot,
    })
    expect(seen.claimed[0]?.dueAt).toBeInstanceOf(Date)
    expect(seen.settled.map(({ taskId, status }) => [taskId, status])).toEqual([
      [first, 'Completed'],
      [second, 'Cancelled'],
    ])
    expect(seen.settled[0]).toMatchObject({
      transactionHash,
      paid: 10n ** 18n,
      refund: 0n,
      // A single result settled as it was submitted: its seal (the fixture's result is anyCid).
      resultDigest: sealResult({ taskId: first, digest: resultDigest(anyCid) }),
    })
  })

  it("reports only a provider's claims, and a source's settlements", async () => {
    const { d, client, provider, sourceA, sourceB } = await market()
    const rival = await fundedClient()
    await registerFixtureProvider(rival, d, [sourceA])
    const byProvider = record({ provider: provider.account.address })
    const bySource = record({ sourceId: sourceB })
    await settle()
    const onA = await submitFixtureTasks(client, d, { sourceId: sourceA, count: 2 })
    const onB = await submitFixtureTasks(client, d, { sourceId: sourceB })
    await claim(rival, d, onA.taskIds[0] ?? 0n)
    await claim(provider, d, onA.taskIds[1] ?? 0n)
    await claim(provider, d, onB.taskIds[0] ?? 0n)
    await submit(rival, d, onA.taskIds[0] ?? 0n)
    await submit(provider, d, onB.taskIds[0] ?? 0n)

    await vi.waitFor(() => expect(bySource.settled).toHaveLength(1), { timeout: 10_000 })
    await vi.waitFor(() => expect(byProvider.claimed).toHaveLength(2))
    expect(byProvider.claimed.map((event) => event.taskId)).toEqual([onA.taskIds[1], onB.taskIds[0]])
    expect(bySource.settled.map((event) => [event.taskId, event.status])).toEqual([
      [onB.taskIds[0], 'Completed'],
    ])
    expect(bySource.submitted.map((event) => event.taskId)).toEqual(onB.taskIds)
    expect(bySource.claimed.map((event) => event.taskId)).toEqual(onB.taskIds)
  })

  it('replays from a block, filters by task id, and stops when unwatched', async () => {
    const { d, client, sourceA } = await market()
    const { taskIds, blockNumber } = await submitFixtureTasks(client, d, { sourceId: sourceA, count: 3 })
    const seen = record({ taskId: [taskIds[0] ?? 0n, taskIds[2] ?? 0n], fromBlock: blockNumber })
    await vi.waitFor(() => expect(seen.submitted).toHaveLength(2), { timeout: 10_000 })
    expect(seen.submitted.map((event) => event.taskId)).toEqual([taskIds[0], taskIds[2]])

    for (const unwatch of unwatchers.splice(0)) unwatch()
    await cancel(client, d, taskIds[0] ?? 0n)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(seen.settled).toEqual([])
  })

  it('reports polling errors to onError and goes on', async () => {
    const errors: Error[] = []
    let failing = true
    const node = reader()
    const flaky = createPublicClient({
      chain: hardhat,
      pollingInterval: 50,
      transport: custom(
        {
          async request({ method, params }) {
            if (failing && method !== 'eth_newFilter') throw new Error('node down')
            return node.request({ method, params } as never)
          },
        },
        { retryCount: 0 },
      ),
    })
    const { d, client, sourceA } = await market()
    const submitted: bigint[] = []
    unwatchers.push(
      watchTasks(flaky, {
        deployment: d,
        client: client.account.address,
        onSubmitted: (event) => submitted.push(event.taskId),
        onError: (error) => errors.push(error),
      }),
    )
    await vi.waitFor(() => expect(errors.length).toBeGreaterThan(0))
    expect(errors[0]?.message).toContain('node down')
    failing = false
    const { taskIds } = await submitFixtureTasks(client, d, { sourceId: sourceA })
    await vi.waitFor(() => expect(submitted).toEqual(taskIds), { timeout: 10_000 })
  })

  it('refuses bad filters', () => {
    expect(() =>
      watchTasks(reader(), { deployment: deployment(), client: 'nobody' as never, taskId: [0n] }),
    ).toThrow(InvalidParametersError)
  })
})
