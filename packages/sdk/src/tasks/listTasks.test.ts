import { createPublicClient, zeroHash } from 'viem'
import { hardhat } from 'viem/chains'
import { beforeAll, describe, expect, it } from 'vitest'
import { deployment, devnet, fundedClient, testClient } from '../../test/chain.js'
import {
  cancel,
  claim,
  countingTransport,
  inputFor,
  publishSource,
  registerFixtureProvider,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { InvalidParametersError } from '../errors/validation.js'
import { type ListTasksParameters, listTasks } from './listTasks.js'

type Filters = Omit<ListTasksParameters, 'deployment'>

/** listTasks through a transport that counts JSON-RPC requests. */
async function list(filters: Filters) {
  const counter = countingTransport(devnet().rpcUrl)
  const client = createPublicClient({ chain: hardhat, transport: counter.transport })
  const tasks = await listTasks(client, { deployment: deployment(), ...filters })
  return { tasks, requests: counter.count() }
}

const ids = (tasks: { taskId: bigint }[]) => tasks.map((task) => task.taskId)

describe('listTasks', () => {
  let client: `0x${string}`
  let provider: `0x${string}`
  let sourceA: number
  let sourceB: number
  /** Three submissions of two tasks each, in three blocks: A, B, A. */
  let batches: { taskIds: bigint[]; blockNumber: bigint }[]

  beforeAll(async () => {
    const d = deployment()
    const [clientWallet, providerWallet] = await Promise.all([fundedClient(), fundedClient()])
    client = clientWallet.account.address
    provider = providerWallet.account.address
    sourceA = await publishSource(clientWallet, d)
    sourceB = await publishSource(clientWallet, d)
    await registerFixtureProvider(providerWallet, d, [sourceA, sourceB])
    batches = []
    for (const sourceId of [sourceA, sourceB, sourceA]) {
      batches.push(await submitFixtureTasks(clientWallet, d, { sourceId, count: 2 }))
    }
    const [a, b, c] = batches.map((batch) => batch.taskIds)
    await claim(providerWallet, d, a?.[1] ?? 0n)
    await claim(providerWallet, d, c?.[0] ?? 0n)
    await cancel(clientWallet, d, b?.[0] ?? 0n)
  })

  const all = () => batches.flatMap((batch) => batch.taskIds)

  it("lists a client's tasks with state and input in 3 requests", async () => {
    const { tasks, requests } = await list({ client })
    expect(ids(tasks)).toEqual(all())
    expect(tasks.map((task) => task.status)).toEqual([
      'Open',
      'Claimed',
      'Cancelled',
      'Open',
      'Claimed',
      'Open',
    ])
    expect(tasks.map((task) => task.inputCID)).toEqual([0, 1, 0, 1, 0, 1].map(inputFor))
    // The fixture's tasks name no result key: their outputs are in the clear.
    expect(tasks.every((task) => task.resultKey === zeroHash)).toBe(true)
    expect(tasks.every((task) => task.client === client)).toBe(true)
    // eth_blockNumber, eth_getLogs, one eth_call for every task's state.
    expect(requests).toBe(3)
  })

  it('filters by source and by status', async () => {
    const [a, b, c] = batches.map((batch) => batch.taskIds)
    expect(ids((await list({ client, sourceId: sourceB })).tasks)).toEqual(b)
    expect(ids((await list({ sourceId: sourceA, status: 'Open' })).tasks)).toEqual([a?.[0], c?.[1]])
    expect(ids((await list({ client, status: ['Claimed', 'Cancelled'] })).tasks)).toEqual([
      a?.[1],
      b?.[0],
      c?.[0],
    ])
    expect((await list({ client, status: 'Completed' })).tasks).toEqual([])
  })

  it("lists a provider's claims, with inputs even when submitted before fromBlock", async () => {
    const [a, , c] = batches.map((batch) => batch.taskIds)
    const claimed = await list({ provider })
    expect(ids(claimed.tasks)).toEqual([a?.[1], c?.[0]])
    expect(claimed.tasks.map((task) => task.inputCID)).toEqual([inputFor(1), inputFor(0)])
    expect(claimed.tasks.every((task) => task.slots[0]?.provider === provider)).toBe(true)

    // Both claims come after the last submission: the inputs are found by task id.
    const lastSubmission = batches[2]?.blockNumber ?? 0n
    const late = await list({ provider, fromBlock: lastSubmission + 1n })
    expect(ids(late.tasks)).toEqual([a?.[1], c?.[0]])
    expect(late.tasks.map((task) => task.inputCID)).toEqual([inputFor(1), inputFor(0)])
    expect(ids((await list({ provider, sourceId: sourceB })).tasks)).toEqual([])
  })

  it('pages through several block ranges with the same result', async () => {
    const fromBlock = batches[0]?.blockNumber ?? 0n
    const toBlock = batches[2]?.blockNumber ?? 0n
    const whole = await list({ client, fromBlock, toBlock })
    const paged = await list({ client, fromBlock, toBlock, blockRange: 2n })
    expect(ids(paged.tasks)).toEqual(all())
    expect(paged.tasks).toEqual(whole.tasks)
    // One eth_getLogs per 2 blocks (the submissions are at least 2 blocks apart), one eth_call.
    const pages = Number((toBlock - fromBlock) / 2n + 1n)
    expect(pages).toBeGreaterThanOrEqual(3)
    expect(paged.requests).toBe(pages + 1)
    // A window holding only the middle submission.
    const middle = batches[1]?.blockNumber ?? 0n
    expect(ids((await list({ client, fromBlock: middle, toBlock: middle })).tasks)).toEqual(
      batches[1]?.taskIds,
    )
  })

  it('pages with limit and afterTaskId, reading only what a page needs', async () => {
    const first = await list({ client, limit: 4 })
    expect(ids(first.tasks)).toEqual(all().slice(0, 4))
    // eth_blockNumber, eth_getLogs, one eth_call for the 4 tasks.
    expect(first.requests).toBe(3)
    const rest = await list({ client, limit: 4, afterTaskId: first.tasks.at(-1)?.taskId })
    expect(ids(rest.tasks)).toEqual(all().slice(4))
    expect((await list({ client, limit: 4, afterTaskId: all().at(-1) })).tasks).toEqual([])
    // With a status filter a page holds `limit` matches, wherever they are.
    const [a, b, c] = batches.map((batch) => batch.taskIds)
    expect(ids((await list({ client, status: 'Open', limit: 2 })).tasks)).toEqual([a?.[0], b?.[1]])
    expect(ids((await list({ client, status: 'Open', limit: 2, afterTaskId: b?.[1] })).tasks)).toEqual([
      c?.[1],
    ])
    const error = await list({ client, limit: 0, afterTaskId: 0n }).catch((error: unknown) => error)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'limit',
      'afterTaskId',
    ])
  })

  it('lists 50 tasks of one submission with state in at most 5 requests', async () => {
    const d = deployment()
    const wallet = await fundedClient()
    const sourceId = await publishSource(wallet, d)
    const { taskIds } = await submitFixtureTasks(wallet, d, { sourceId, count: 50 })
    const { tasks, requests } = await list({ client: wallet.account.address })
    expect(ids(tasks)).toEqual(taskIds)
    expect(tasks.every((task) => task.status === 'Open' && task.inputCID !== undefined)).toBe(true)
    expect(requests).toBeLessThanOrEqual(5)
  })

  it('refuses bad filters before any request', async () => {
    const error = await listTasks(testClient(), {
      deployment: deployment(),
      client: 'me' as never,
      status: 'Done' as never,
      sourceId: -1,
    }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'client',
      'sourceId',
      'status',
    ])
    const range = await list({ fromBlock: 10n, toBlock: 9n, blockRange: 0n }).catch((error: unknown) => error)
    expect((range as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'blockRange',
      'toBlock',
    ])
  })
})
