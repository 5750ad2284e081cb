import { createClient, custom, numberToHex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { describe, expect, test } from 'vitest'
import { type MarketLog, watchMarket } from './marketWatch.js'

const deployment = {
  chainId: 31337,
  blockNumber: 0,
  contracts: {
    token: '0x0000000000000000000000000000000000000001',
    sources: '0x0000000000000000000000000000000000000002',
    staking: '0x0000000000000000000000000000000000000003',
    providers: '0x0000000000000000000000000000000000000004',
    market: '0x0000000000000000000000000000000000000005',
    leases: '0x0000000000000000000000000000000000000006',
  },
} as const

/** A node at block `head` whose eth_getLogs refuses ranges wider than `widest` blocks (a response limit). */
function node(head: bigint, widest: bigint) {
  const requests: { method: string; from?: bigint; to?: bigint }[] = []
  const transport = custom(
    {
      async request({ method, params }: { method: string; params?: unknown }) {
        if (method === 'eth_blockNumber') {
          requests.push({ method })
          return numberToHex(head)
        }
        if (method === 'eth_getLogs') {
          const [filter] = params as [{ fromBlock: `0x${string}`; toBlock: `0x${string}` }]
          const from = BigInt(filter.fromBlock)
          const to = BigInt(filter.toBlock)
          requests.push({ method, from, to })
          if (to - from + 1n > widest) throw new Error('HTTP response body exceeded the size limit.')
          return []
        }
        throw new Error(`unexpected ${method}`)
      },
    },
    { retryCount: 0 },
  )
  const client = createClient({
    account: privateKeyToAccount(`0x${'11'.repeat(32)}`),
    chain: hardhat,
    transport,
  })
  return { client, requests }
}

describe('watchMarket', () => {
  test('reads from the cursor to the head, halving a range the node refuses, and reports each batch', async () => {
    const { client, requests } = node(10_000n, 1_500n)
    const controller = new AbortController()
    const batches: bigint[] = []
    const errors: unknown[] = []
    const watching = watchMarket({
      client,
      deployment,
      fromBlock: 101n,
      pollingInterval: 10,
      onLogs: async (_logs: MarketLog[], toBlock) => {
        batches.push(toBlock)
        if (toBlock === 10_000n) controller.abort()
      },
      onError: (error) => errors.push(error),
      signal: controller.signal,
    })
    await watching
    expect(errors).toEqual([])
    expect(batches.at(-1)).toBe(10_000n)
    // Every block once, in order, with no gap.
    const read = requests.filter(
      (r) => r.method === 'eth_getLogs' && r.to !== undefined && r.to - (r.from ?? 0n) < 1_500n,
    )
    expect(read[0]?.from).toBe(101n)
    for (let index = 1; index < read.length; index++)
      expect(read[index]?.from).toBe((read[index - 1]?.to ?? 0n) + 1n)
    expect(read.at(-1)?.to).toBe(10_000n)
  })

  test('while nothing happens: one eth_blockNumber per poll, no eth_getLogs', async () => {
    const { client, requests } = node(500n, 5_000n)
    const controller = new AbortController()
    const watching = watchMarket({
      client,
      deployment,
      fromBlock: 501n,
      pollingInterval: 20,
      onLogs: async () => {},
      onError: () => {},
      signal: controller.signal,
    })
    await new Promise((resolve) => setTimeout(resolve, 200))
    // The watch keeps the process alive between polls: a script awaiting `agent.done` must not exit.
    const keepingAlive = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length
    const whileWatching = keepingAlive()
    controller.abort()
    await watching
    expect(whileWatching).toBeGreaterThan(keepingAlive())
    expect(requests.filter((r) => r.method === 'eth_getLogs')).toEqual([])
    expect(requests.length).toBeGreaterThan(3)
  })
})
