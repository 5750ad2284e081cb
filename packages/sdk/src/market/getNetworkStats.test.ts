import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, fundedClient } from '../../test/chain.js'
import {
  cancel,
  claim,
  publishSource,
  registerFixtureProvider,
  send,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { pause } from '../abis/providerRegistry.js'
import { InvalidParametersError } from '../errors/validation.js'
import { type GetNetworkStatsReturnType, getNetworkStats } from './getNetworkStats.js'

type Counts = Omit<GetNetworkStatsReturnType, 'blockNumber'>

const stats = (toBlock: bigint, options: { fromBlock?: bigint; blockRange?: bigint } = {}) =>
  getNetworkStats(deployerClient(), { deployment: deployment(), toBlock, ...options })

const zero: Counts = {
  tasks: 0n,
  openTasks: 0,
  settledTasks: 0,
  completedTasks: 0,
  failedTasks: 0,
  cancelledTasks: 0,
  expiredTasks: 0,
  totalPaid: 0n,
  registeredProviders: 0,
  activeProviders: 0,
}

/** `a + sign × b`, count by count. */
function combine(a: Counts, b: Counts, sign: 1 | -1): Counts {
  const entries = (Object.keys(zero) as (keyof Counts)[]).map((key) => {
    const [x, y] = [a[key], b[key]]
    return [key, typeof x === 'bigint' ? x + BigInt(sign) * BigInt(y) : x + sign * Number(y)]
  })
  return Object.fromEntries(entries) as Counts
}

/**
 * The change of every count made by `accounts` between blocks `from` and `to`:
 * the sum, over the blocks holding their transactions, of the stats at that
 * block minus those at the block before. Other test files share the chain, but
 * Hardhat mines one transaction per block, so their blocks are left out.
 */
async function changesBy(accounts: Address[], from: bigint, to: bigint): Promise<Counts> {
  const senders = new Set(accounts.map((account) => account.toLowerCase()))
  let total = zero
  for (let block = from; block <= to; block += 1n) {
    const { transactions } = await deployerClient().getBlock({
      blockNumber: block,
      includeTransactions: true,
    })
    if (!transactions.some((tx) => senders.has(tx.from.toLowerCase()))) continue
    const [before, after] = await Promise.all([stats(block - 1n), stats(block)])
    total = combine(total, combine(after, before, -1), 1)
  }
  return total
}

describe('getNetworkStats', () => {
  it('counts submissions, settlements by status, payments and providers, exactly', async () => {
    const d = deployment()
    const [client, provider, paused, newcomer] = await Promise.all([
      fundedClient(),
      fundedClient(),
      fundedClient(),
      fundedClient(),
    ])
    const sourceId = await publishSource(client, d)
    await registerFixtureProvider(provider, d, [sourceId])
    await registerFixtureProvider(paused, d, [sourceId])
    const start = (await deployerClient().getBlockNumber()) + 1n

    const {
      taskIds: [completed = 0n, cancelled = 0n, open = 0n],
      blockNumber: submittedAt,
    } = await submitFixtureTasks(client, d, { sourceId, count: 3 })
    await claim(provider, d, completed)
    const { blockNumber: completedAt } = await submit(provider, d, completed)
    await cancel(client, d, cancelled)
    await registerFixtureProvider(newcomer, d, [sourceId])
    await send(paused, { address: d.contracts.providers, abi: [pause], functionName: 'pause', args: [] })
    const end = await deployerClient().getBlockNumber()

    const accounts = [client, provider, paused, newcomer].map((account) => account.account.address)
    expect(await changesBy(accounts, start, end)).toEqual({
      tasks: 3n,
      openTasks: 1,
      settledTasks: 2,
      completedTasks: 1,
      failedTasks: 0,
      cancelledTasks: 1,
      expiredTasks: 0,
      totalPaid: 10n ** 18n,
      // The newcomer registered; the paused provider stays registered but is no longer active.
      registeredProviders: 1,
      activeProviders: 0,
    })

    // A range of blocks counts only its own events (the task count is the market's, as of the end).
    expect(await stats(submittedAt, { fromBlock: submittedAt })).toEqual({
      ...zero,
      tasks: open,
      openTasks: 3,
      blockNumber: submittedAt,
    })
    expect(await stats(completedAt, { fromBlock: completedAt })).toMatchObject({
      openTasks: 0,
      settledTasks: 1,
      completedTasks: 1,
      totalPaid: 10n ** 18n,
      registeredProviders: 0,
      blockNumber: completedAt,
    })
  })

  it('is as of one block: the latest by default, or toBlock, whatever the page size', async () => {
    const latest = await deployerClient().getBlockNumber()
    const now = await getNetworkStats(deployerClient(), { deployment: deployment() })
    expect(now.blockNumber).toBeGreaterThanOrEqual(latest)
    expect(now.registeredProviders).toBeGreaterThanOrEqual(now.activeProviders)
    // Over the whole history every task is open or settled.
    expect(BigInt(now.openTasks + now.settledTasks)).toBe(now.tasks)

    const whole = await stats(latest)
    expect(whole.blockNumber).toBe(latest)
    expect(await stats(latest, { blockRange: 3n })).toEqual(whole)
  })

  it('refuses bad ranges', async () => {
    const client = deployerClient()
    for (const parameters of [
      { blockRange: 0n },
      { fromBlock: 10n, toBlock: 9n },
      { fromBlock: 'latest' as never },
    ]) {
      await expect(getNetworkStats(client, { deployment: deployment(), ...parameters })).rejects.toThrow(
        InvalidParametersError,
      )
    }
  })
})
