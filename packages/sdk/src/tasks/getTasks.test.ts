import { createPublicClient, custom } from 'viem'
import { multicall } from 'viem/actions'
import { hardhat } from 'viem/chains'
import { beforeAll, describe, expect, it } from 'vitest'
import { deployment, devnet, fundedClient, installMulticall3, testClient } from '../../test/chain.js'
import {
  cancel,
  claim,
  commit,
  countingTransport,
  publishSource,
  registerFixtureProvider,
  reveal,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { TaskNotFoundError } from '../errors/task.js'
import type { InvalidParametersError } from '../errors/validation.js'
import { failureDigest } from './failures.js'
import { getTask } from './getTask.js'
import { callsInFlight, getTasks, tasksPerCall } from './getTasks.js'

describe('getTasks', () => {
  let taskIds: bigint[]

  beforeAll(async () => {
    const d = deployment()
    const [client, provider] = await Promise.all([fundedClient(), fundedClient()])
    const sourceId = await publishSource(client, d)
    await registerFixtureProvider(provider, d, [sourceId])
    ;({ taskIds } = await submitFixtureTasks(client, d, { sourceId, count: 4 }))
    await claim(provider, d, taskIds[1] ?? 0n)
    await cancel(client, d, taskIds[2] ?? 0n)
  })

  it('reads every task in one eth_call, in the order asked, equal to getTask', async () => {
    const counter = countingTransport(devnet().rpcUrl)
    const client = createPublicClient({ chain: hardhat, transport: counter.transport })
    const order = [taskIds[3], taskIds[0], taskIds[1], taskIds[2], taskIds[0]] as bigint[]
    const tasks = await getTasks(client, { deployment: deployment(), taskIds: order })
    expect(counter.count()).toBe(1)
    expect(tasks.map((task) => task.taskId)).toEqual(order)
    expect(tasks.map((task) => task.status)).toEqual(['Open', 'Open', 'Claimed', 'Cancelled', 'Open'])
    for (const task of tasks) {
      expect(task).toEqual(await getTask(client, { deployment: deployment(), taskId: task.taskId }))
    }
  })

  it('reads the failure of a failed run that was not held from its event, in one more request', async () => {
    const d = deployment()
    const [client, provider] = await Promise.all([fundedClient(), fundedClient()])
    const sourceId = await publishSource(client, d)
    await registerFixtureProvider(provider, d, [sourceId])
    const {
      taskIds: [failed = 0n, completed = 0n],
    } = await submitFixtureTasks(client, d, { sourceId, count: 2 })
    for (const taskId of [failed, completed]) await claim(provider, d, taskId)
    await submit(provider, d, failed, { digest: failureDigest({ kind: 'exited', exitCode: 9 }) })
    await submit(provider, d, completed)

    const counter = countingTransport(devnet().rpcUrl)
    const reader = createPublicClient({ chain: hardhat, transport: counter.transport })
    const tasks = await getTasks(reader, { deployment: d, taskIds: [failed, completed, taskIds[0] ?? 0n] })
    expect(counter.count()).toBe(2)
    expect(tasks.map(({ status, failed, failure }) => ({ status, failed, failure }))).toEqual([
      { status: 'Completed', failed: true, failure: { kind: 'exited', exitCode: 9 } },
      { status: 'Completed', failed: false, failure: undefined },
      { status: 'Open', failed: false, failure: undefined },
    ])
    expect(tasks[0]).toEqual(await getTask(reader, { deployment: d, taskId: failed }))
  })

  it('reads the dispute of replicas whose results differ in a second pass, as getTask does', async () => {
    const d = deployment()
    const [client, first, second] = await Promise.all([fundedClient(), fundedClient(), fundedClient()])
    const sourceId = await publishSource(client, d, { deterministic: true })
    await Promise.all([first, second].map((provider) => registerFixtureProvider(provider, d, [sourceId])))
    const {
      taskIds: [disputed = 0n, agreed = 0n],
    } = await submitFixtureTasks(client, d, { sourceId, count: 2, replicas: 2 })
    for (const provider of [first, second]) {
      await claim(provider, d, disputed)
      await claim(provider, d, agreed)
    }
    for (const [provider, output] of [
      [first, 'bafkreione'],
      [second, 'bafkreitwo'],
    ] as const) {
      await commit(provider, d, disputed, output)
      await commit(provider, d, agreed, 'bafkreione')
    }
    for (const [provider, output] of [
      [first, 'bafkreione'],
      [second, 'bafkreitwo'],
    ] as const) {
      await reveal(provider, d, disputed, output)
      await reveal(provider, d, agreed, 'bafkreione')
    }

    const counter = countingTransport(devnet().rpcUrl)
    const reader = createPublicClient({ chain: hardhat, transport: counter.transport })
    const tasks = await getTasks(reader, { deployment: d, taskIds: [disputed, agreed] })
    expect(counter.count()).toBe(2)
    expect(
      tasks.map(({ status, audit }) => ({ status, round: audit?.round, firstSlot: audit?.firstSlot })),
    ).toEqual([
      { status: 'Auditing', round: 1, firstSlot: 2 },
      { status: 'Completed', round: undefined, firstSlot: undefined },
    ])
    expect(tasks[0]).toEqual(await getTask(reader, { deployment: d, taskId: disputed }))
  })

  it('names every unknown id in one TaskNotFoundError', async () => {
    const error = await getTasks(testClient(), {
      deployment: deployment(),
      taskIds: [taskIds[0] ?? 0n, 999_999_998n, 999_999_999n],
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(TaskNotFoundError)
    expect((error as TaskNotFoundError).taskIds).toEqual([999_999_998n, 999_999_999n])
  })

  it('reads nothing for no ids, and refuses bad ids', async () => {
    const counter = countingTransport(devnet().rpcUrl)
    const client = createPublicClient({ chain: hardhat, transport: counter.transport })
    expect(await getTasks(client, { deployment: deployment(), taskIds: [] })).toEqual([])
    expect(counter.count()).toBe(0)
    const error = await getTasks(client, { deployment: deployment(), taskIds: [1n, 0n, 'x' as never] }).catch(
      (error: unknown) => error,
    )
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'taskIds.1',
      'taskIds.2',
    ])
  })

  it("uses the chain's Multicall3 where the chain names one", async () => {
    const address = await installMulticall3()
    const counter = countingTransport(devnet().rpcUrl)
    const client = createPublicClient({
      chain: { ...hardhat, contracts: { multicall3: { address } } },
      transport: counter.transport,
    })
    const tasks = await getTasks(client, { deployment: deployment(), taskIds })
    expect(tasks.map((task) => task.status)).toEqual(['Open', 'Claimed', 'Cancelled', 'Open'])
    expect(counter.count()).toBe(1)
    await expect(
      getTasks(client, { deployment: deployment(), taskIds: [999_999_997n] }),
    ).rejects.toBeInstanceOf(TaskNotFoundError)

    // Through viem's multicall: the client's own, when it brings one.
    const multicalls: number[] = []
    const own = client.extend((base) => ({
      multicall: ((args: Parameters<typeof multicall>[1]) => {
        multicalls.push(args.contracts.length)
        return multicall(base, args)
      }) as typeof base.multicall,
    }))
    expect(await getTasks(own, { deployment: deployment(), taskIds })).toHaveLength(4)
    expect(multicalls).toEqual([8])

    // A client that batches multicalls still makes one call per chunk.
    const batching = countingTransport(devnet().rpcUrl)
    const batched = createPublicClient({
      chain: { ...hardhat, contracts: { multicall3: { address } } },
      transport: batching.transport,
      batch: { multicall: true },
    })
    const many = Array.from(
      { length: tasksPerCall.multicall3 + 1 },
      (_, index) => taskIds[index % 4] as bigint,
    )
    const read = await getTasks(batched, { deployment: deployment(), taskIds: many })
    expect(read.map((task) => task.taskId)).toEqual(many)
    expect(batching.methods()).toEqual(['eth_blockNumber', 'eth_call', 'eth_call'])
  })

  it('reads any number of ids, four calls in flight at a time', async () => {
    const counter = countingTransport(devnet().rpcUrl)
    let inFlight = 0
    let most = 0
    const tracked = custom({
      async request(args) {
        most = Math.max(most, ++inFlight)
        try {
          return await counter.transport({ chain: hardhat }).request(args)
        } finally {
          inFlight--
        }
      },
    })
    const client = createPublicClient({ chain: hardhat, transport: tracked })
    // More than the 10,000 it used to refuse.
    const many = Array.from({ length: 10_001 }, (_, index) => taskIds[index % 4] as bigint)
    const tasks = await getTasks(client, { deployment: deployment(), taskIds: many })
    expect(tasks.map((task) => task.taskId)).toEqual(many)
    expect(tasks.slice(0, 4).map((task) => task.status)).toEqual(['Open', 'Claimed', 'Cancelled', 'Open'])
    // One block number, then a call per 500 tasks, no more than four at once.
    expect(counter.methods()).toEqual(['eth_blockNumber', ...Array(21).fill('eth_call')])
    expect(most).toBe(callsInFlight)
  })

  it('splits a call that runs out of gas (many tasks of seven replicas)', { timeout: 120_000 }, async () => {
    const d = deployment()
    const client = await fundedClient({ grid: '100' })
    const sourceId = await publishSource(client, d, { deterministic: true })
    const ids: bigint[] = []
    // About 55,000 gas each to read: tasksPerCall of them do not fit the 2^24 cap of one call.
    for (let done = 0; done < tasksPerCall.aggregator; done += 100) {
      const { taskIds } = await submitFixtureTasks(client, d, {
        sourceId,
        count: 100,
        replicas: 7,
        maxPayment: '0.01',
      })
      ids.push(...taskIds)
    }
    const counter = countingTransport(devnet().rpcUrl)
    const reader = createPublicClient({ chain: hardhat, transport: counter.transport })
    const tasks = await getTasks(reader, { deployment: d, taskIds: ids })
    expect(tasks).toHaveLength(tasksPerCall.aggregator)
    expect(tasks.every((task, index) => task.taskId === ids[index] && task.slots.length === 7)).toBe(true)
    // The first call runs out; its halves pass.
    expect(counter.count()).toBe(3)

    // Through Multicall3 (viem's multicall): 300 and 200 tasks; the 300 run out, their halves pass.
    const multicall3Address = await installMulticall3()
    const viaMulticall3 = countingTransport(devnet().rpcUrl)
    const multicall3Reader = createPublicClient({
      chain: { ...hardhat, contracts: { multicall3: { address: multicall3Address } } },
      transport: viaMulticall3.transport,
    })
    expect(await getTasks(multicall3Reader, { deployment: d, taskIds: ids })).toEqual(tasks)
    expect(viaMulticall3.methods()).toEqual(['eth_blockNumber', ...Array(4).fill('eth_call')])
  })
})
