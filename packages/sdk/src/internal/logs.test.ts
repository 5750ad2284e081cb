import { createPublicClient, custom, http, type PublicClient } from 'viem'
import { hardhat } from 'viem/chains'
import { beforeAll, describe, expect, it } from 'vitest'
import { devnet, fundedClient, deployment as testDeployment, transport } from '../../test/chain.js'
import { publishSource, submitFixtureTasks } from '../../test/fixtures.js'
import { TaskSubmitted } from '../abis/taskMarket.js'
import { getLogsPaginated, isRangeError } from './logs.js'

/** A client whose node refuses `eth_getLogs` over more than `limit` blocks, counting every request. */
function limitedClient(limit?: bigint) {
  const node = createPublicClient({ chain: hardhat, transport: transport() })
  const requests: { method: string; params: unknown }[] = []
  const client = createPublicClient({
    chain: hardhat,
    transport: custom(
      {
        async request({ method, params }) {
          requests.push({ method, params })
          if (method === 'eth_getLogs' && limit !== undefined) {
            const [{ fromBlock, toBlock }] = params as [{ fromBlock: string; toBlock: string }]
            const end = toBlock === 'latest' ? await node.getBlockNumber({ cacheTime: 0 }) : BigInt(toBlock)
            if (end - BigInt(fromBlock) + 1n > limit) {
              throw { code: -32005, message: `query exceeds the limit of ${limit} blocks` }
            }
          }
          return node.request({ method, params } as never)
        },
      },
      { retryCount: 0 },
    ),
  })
  return { client: client as PublicClient, requests }
}

describe('getLogsPaginated', () => {
  let account: `0x${string}`
  let fromBlock: bigint
  let toBlock: bigint
  let taskIds: bigint[]

  beforeAll(async () => {
    const d = testDeployment()
    const client = await fundedClient()
    account = client.account.address
    const sourceId = await publishSource(client, d)
    taskIds = []
    const blocks: bigint[] = []
    // Five submissions, each in its own block (with an approval block between them).
    for (let round = 0; round < 5; round++) {
      const submitted = await submitFixtureTasks(client, d, { sourceId, count: 2 })
      taskIds.push(...submitted.taskIds)
      blocks.push(submitted.blockNumber)
    }
    fromBlock = blocks[0] ?? 0n
    toBlock = blocks[4] ?? 0n
  })

  const query = { event: TaskSubmitted }
  const read = (client: PublicClient, blockRange?: bigint) =>
    getLogsPaginated(client, {
      ...query,
      address: testDeployment().contracts.market,
      args: { client: account },
      fromBlock,
      toBlock,
      blockRange,
    })

  it('reads the whole range in one request by default', async () => {
    const { client, requests } = limitedClient()
    const logs = await read(client)
    expect(logs.map((log) => log.args.taskId)).toEqual(taskIds)
    expect(requests.map((request) => request.method)).toEqual(['eth_getLogs'])
  })

  it('pages by blockRange, in block order, up to four requests at once', async () => {
    const { client, requests } = limitedClient()
    const logs = await read(client, 2n)
    expect(logs.map((log) => log.args.taskId)).toEqual(taskIds)
    expect(logs.every((log) => log.args.client === account)).toBe(true)
    expect(requests).toHaveLength(Number((toBlock - fromBlock) / 2n + 1n))
  })

  it('halves pages the node refuses, and keeps the smaller size', async () => {
    const { client, requests } = limitedClient(3n)
    const logs = await read(client)
    expect(logs.map((log) => log.args.taskId)).toEqual(taskIds)
    const ranges = requests.map((request) => {
      const [{ fromBlock, toBlock }] = request.params as [{ fromBlock: string; toBlock: string }]
      return Number(BigInt(toBlock) - BigInt(fromBlock) + 1n)
    })
    const total = Number(toBlock - fromBlock + 1n)
    expect(ranges[0]).toBe(total)
    // Every block read exactly once by a page the node accepted; each refusal split a page in two.
    const accepted = ranges.filter((range) => range <= 3)
    const refused = ranges.filter((range) => range > 3)
    expect(accepted.reduce((sum, range) => sum + range, 0)).toBe(total)
    expect(accepted.length).toBe(refused.length + 1)
  })

  it("halves pages whose answer is over the transport's response size limit (ResponseBodyTooLargeError)", async () => {
    // One block's two logs (~2.5 KB) fit, the whole range's ten do not: a transport's size cap, as a
    // public RPC's answers hit it at scale.
    const client = createPublicClient({
      chain: hardhat,
      transport: http(devnet().rpcUrl, { maxResponseBodySize: 4_000, retryCount: 0 }),
    })
    for (const blockRange of [undefined, 1_000n]) {
      const logs = await read(client as PublicClient, blockRange)
      expect(logs.map((log) => log.args.taskId)).toEqual(taskIds)
    }
  })

  it('reads to the latest block when toBlock is omitted', async () => {
    const latest = (blockRange?: bigint, limit?: bigint) => {
      const { client, requests } = limitedClient(limit)
      const logs = getLogsPaginated(client, {
        ...query,
        address: testDeployment().contracts.market,
        args: { client: account },
        fromBlock,
        blockRange,
      })
      return { logs, requests }
    }
    // Without blockRange: one request up to 'latest'.
    const whole = latest()
    expect((await whole.logs).map((log) => log.args.taskId)).toEqual(taskIds)
    expect(whole.requests).toEqual([
      { method: 'eth_getLogs', params: [expect.objectContaining({ toBlock: 'latest' })] },
    ])
    // With blockRange, or once 'latest' is refused: the block number first, then pages.
    const paged = latest(1_000n)
    expect((await paged.logs).map((log) => log.args.taskId)).toEqual(taskIds)
    expect(paged.requests.map((request) => request.method)).toEqual(['eth_blockNumber', 'eth_getLogs'])
    const refused = latest(undefined, 3n)
    expect((await refused.logs).map((log) => log.args.taskId)).toEqual(taskIds)
    expect(refused.requests.slice(0, 2).map((request) => request.method)).toEqual([
      'eth_getLogs',
      'eth_blockNumber',
    ])
  })

  it('returns nothing for an empty range without a request, and refuses a zero blockRange', async () => {
    const { client, requests } = limitedClient()
    const address = testDeployment().contracts.market
    expect(await getLogsPaginated(client, { ...query, address, fromBlock: 10n, toBlock: 9n })).toEqual([])
    expect(requests).toHaveLength(0)
    await expect(
      getLogsPaginated(client, { ...query, address, fromBlock: 1n, toBlock: 9n, blockRange: 0n }),
    ).rejects.toThrow('blockRange must be at least 1n')
  })

  it('gives up at once when the node rate-limits, and within log2(range) tries on other errors', async () => {
    let fetches = 0
    const rateLimited = createPublicClient({
      chain: hardhat,
      transport: http(devnet().rpcUrl, {
        retryCount: 0,
        fetchFn: async () => {
          fetches++
          return new Response('slow down', { status: 429 })
        },
      }),
    })
    await expect(read(rateLimited)).rejects.toThrow()
    expect(fetches).toBe(1)

    const broken = createPublicClient({
      chain: hardhat,
      transport: custom(
        {
          async request() {
            fetches++
            throw { code: -32603, message: 'internal error' }
          },
        },
        { retryCount: 0 },
      ),
    })
    fetches = 0
    await expect(
      getLogsPaginated(broken, {
        ...query,
        address: testDeployment().contracts.market,
        fromBlock: 1n,
        toBlock: 1024n,
      }),
    ).rejects.toThrow('internal error')
    // Depth first: 1024, 512, …, 1 block, then it throws.
    expect(fetches).toBe(11)
  })
})

describe('isRangeError', () => {
  /** An error as another copy of viem makes it: the same fields, another class (not this viem's BaseError). */
  const foreign = (name: string, fields: Record<string, unknown> = {}, cause?: unknown) =>
    Object.assign(new Error(`${name} (another viem)`), { name, shortMessage: `${name}.`, cause, ...fields })

  it('knows the errors of another viem copy by name: a page too large is split, a refusal is not', () => {
    expect(isRangeError(foreign('ResponseBodyTooLargeError'))).toBe(true)
    expect(
      isRangeError(foreign('CallExecutionError', {}, foreign('RpcRequestError', { code: -32005 }))),
    ).toBe(true)
    expect(isRangeError(foreign('CallExecutionError', {}, foreign('RpcRequestError', { code: 429 })))).toBe(
      false,
    )
    expect(isRangeError(foreign('HttpRequestError', { status: 413 }))).toBe(true)
    expect(isRangeError(foreign('HttpRequestError', { status: 403 }))).toBe(false)
    expect(isRangeError(foreign('HttpRequestError'))).toBe(false)
    expect(isRangeError(new Error('not from viem'))).toBe(false)
  })
})
