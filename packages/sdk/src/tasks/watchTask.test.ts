import { createPublicClient, http } from 'viem'
import { hardhat } from 'viem/chains'
import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest'
import { deployment, devnet, fundedClient, testClient } from '../../test/chain.js'
import {
  cancel,
  cids,
  claim,
  commit,
  publishSource,
  registerFixtureProvider,
  reveal,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { InvalidParametersError } from '../errors/validation.js'
import { type TaskEvent, watchTask } from './watchTask.js'

const reader = () => createPublicClient({ chain: hardhat, transport: http(devnet().rpcUrl) })

const unwatchers: (() => void)[] = []
afterEach(() => {
  for (const unwatch of unwatchers.splice(0)) unwatch()
})

/** Watches `taskId`, polling every 50 ms, and records its events. */
function record(taskId: bigint, options: { fromBlock?: bigint } = {}) {
  const events: TaskEvent[] = []
  const unwatch = watchTask(reader(), {
    deployment: deployment(),
    taskId,
    pollingInterval: 50,
    onEvent: (event) => events.push(event),
    ...options,
  })
  unwatchers.push(unwatch)
  return { events, unwatch }
}

// Let the watch install its filter before the events it must see.
const settle = () => new Promise((resolve) => setTimeout(resolve, 200))

describe('watchTask', () => {
  it("reports a single-replica task's claim, result, payment and settlement, in order, and nothing else", async () => {
    const d = deployment()
    const [client, other, provider] = await Promise.all([fundedClient(), fundedClient(), fundedClient()])
    const sourceId = await publishSource(client, d)
    await registerFixtureProvider(provider, d, [sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, d, { sourceId })
    // Hardhat's new filters include the latest block: move past the submission, which is not watched here.
    await testClient().mine({ blocks: 1 })
    const { events } = record(taskId)
    await settle()

    const {
      taskIds: [otherId = 0n],
    } = await submitFixtureTasks(other, d, { sourceId })
    await claim(provider, d, otherId)
    const { slot } = await claim(provider, d, taskId)
    const answered = await submit(provider, d, taskId)
    await submit(provider, d, otherId)

    await vi.waitFor(() => expect(events.map((event) => event.eventName)).toContain('TaskFinalized'), {
      timeout: 10_000,
    })
    expect(events.map((event) => event.eventName)).toEqual([
      'TaskClaimed',
      'ResultSubmitted',
      'ReplicaPaid',
      'TaskFinalized',
    ])
    expect(events.every((event) => event.taskId === taskId && event.args.taskId === taskId)).toBe(true)
    const [claimed, submitted, paid, finalized] = events
    expect(claimed).toMatchObject({ args: { provider: provider.account.address, slot } })
    expect(submitted).toMatchObject({
      blockNumber: answered.blockNumber,
      transactionHash: answered.transactionHash,
      args: { provider: provider.account.address, resultCID: cids.input },
    })
    expect(paid).toMatchObject({ args: { payment: 10n ** 18n } })
    // The result, the payment and the settlement are one transaction, in log order.
    expect([paid?.transactionHash, finalized?.transactionHash]).toEqual([
      answered.transactionHash,
      answered.transactionHash,
    ])
    expect(claimed?.blockNumber).toBeLessThan(answered.blockNumber)
    expect((paid?.logIndex ?? 0) < (finalized?.logIndex ?? 0)).toBe(true)
    expect(finalized).toMatchObject({ args: { client: client.account.address, status: 4, paid: 10n ** 18n } })
  })

  it('follows a consensus task through commitments and reveals', async () => {
    const d = deployment()
    const [client, first, second] = await Promise.all([fundedClient(), fundedClient(), fundedClient()])
    const sourceId = await publishSource(client, d, { deterministic: true })
    await Promise.all([
      registerFixtureProvider(first, d, [sourceId]),
      registerFixtureProvider(second, d, [sourceId]),
    ])
    const {
      taskIds: [taskId = 0n],
      blockNumber,
    } = await submitFixtureTasks(client, d, { sourceId, replicas: 2 })
    // From the submission's block: the submission is replayed before the new events.
    const { events } = record(taskId, { fromBlock: blockNumber })

    await claim(first, d, taskId)
    await claim(second, d, taskId)
    await commit(first, d, taskId, cids.output)
    await commit(second, d, taskId, cids.output)
    await reveal(first, d, taskId, cids.output)
    await reveal(second, d, taskId, cids.output)

    await vi.waitFor(() => expect(events.at(-1)?.eventName).toBe('TaskFinalized'), { timeout: 10_000 })
    expect(events.map((event) => event.eventName)).toEqual([
      'TaskSubmitted',
      'TaskClaimed',
      'TaskClaimed',
      'ResultCommitted',
      'ResultCommitted',
      'RevealOpened',
      'ResultRevealed',
      'ResultRevealed',
      'ReplicaPaid',
      'ReplicaPaid',
      'TaskFinalized',
    ])
    const revealed = events.filter((event) => event.eventName === 'ResultRevealed')
    expect(revealed.map((event) => [event.args.provider, event.args.resultCID])).toEqual([
      [first.account.address, cids.output],
      [second.account.address, cids.output],
    ])
    const last = events.at(-1)
    if (last?.eventName !== 'TaskFinalized') throw new Error('expected TaskFinalized last')
    // `eventName` narrows `args` to the event's own fields.
    expectTypeOf(last.args.paid).toEqualTypeOf<bigint>()
    expect(last.args.paid).toBe(2n * 10n ** 18n)
  })

  it('stops when unwatched', async () => {
    const d = deployment()
    const client = await fundedClient()
    const sourceId = await publishSource(client, d)
    const {
      taskIds: [taskId = 0n],
      blockNumber,
    } = await submitFixtureTasks(client, d, { sourceId })
    const { events, unwatch } = record(taskId, { fromBlock: blockNumber })
    await vi.waitFor(() => expect(events.map((event) => event.eventName)).toEqual(['TaskSubmitted']))

    unwatch()
    await cancel(client, d, taskId)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(events.map((event) => event.eventName)).toEqual(['TaskSubmitted'])
  })

  it('refuses a bad task id', () => {
    for (const taskId of [0n, -1n, 'seven' as never]) {
      expect(() => watchTask(reader(), { deployment: deployment(), taskId, onEvent: () => {} })).toThrow(
        InvalidParametersError,
      )
    }
  })
})
