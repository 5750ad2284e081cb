import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { parseUnits } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { deployment, fundedClient, testClient } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  outputCid,
  publishTestSource,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { createIndexerClient, type IndexerFallback } from '../indexer/createIndexerClient.js'
import { acceptLease } from '../leases/acceptLease.js'
import { approveLeaseMarket } from '../leases/approveLeaseMarket.js'
import { getLease } from '../leases/getLease.js'
import { getLeaseParams } from '../leases/getLeaseParams.js'
import { redeemUsage } from '../leases/redeemUsage.js'
import { requestLease } from '../leases/requestLease.js'
import { signUsage } from '../leases/signUsage.js'
import { claimTask } from '../tasks/claimTask.js'
import { submitResult } from '../tasks/submitResult.js'
import { getProviderSummary } from './getProviderSummary.js'

const URL = 'http://indexer.test'
const server = setupServer()
// The chain's JSON-RPC goes through: only the indexer is mocked.
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }))
afterEach(() => server.resetHandlers())
afterAll(() => server.close())

const grid = (amount: string) => parseUnits(amount, 18)

describe('getProviderSummary', () => {
  let provider: Awaited<ReturnType<typeof testProvider>>
  let reader: Awaited<ReturnType<typeof fundedClient>>
  let working: bigint
  /** The lease it serves: 10⁻⁶ GRID a second, and the seconds of its redeemed acknowledgement. */
  const leasePrice = 10n ** 12n
  let leaseServedSec: number

  beforeAll(async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '20' })
    provider = await testProvider([sourceId])
    reader = await fundedClient({ grid: '0' })
    // One task paid, one claimed and still running.
    const { taskId: paid } = await submitTestTask(client, sourceId, { maxPayment: '5' })
    await claimTask(provider, { deployment: deployment(), taskId: paid })
    await submitResult(provider, {
      deployment: deployment(),
      taskId: paid,
      result: await outputCid('the output'),
      receipt: anyCid,
      runtimeSec: 30,
    })
    ;({ taskId: working } = await submitTestTask(client, sourceId, { maxPayment: '2' }))
    await claimTask(provider, { deployment: deployment(), taskId: working })
    // One lease accepted (no penalty: no collateral), one acknowledgement of its service redeemed.
    await approveLeaseMarket(client, { deployment: deployment(), amount: '1' })
    const { leaseId } = await requestLease(client, {
      deployment: deployment(),
      sourceId,
      maxPricePerSec: leasePrice,
      duration: '1h',
      deposit: '1',
    })
    await acceptLease(provider, { deployment: deployment(), leaseId })
    await testClient().increaseTime({ seconds: 60 })
    await testClient().mine({ blocks: 1 })
    const { startedAt } = await getLease(reader, { deployment: deployment(), leaseId })
    const at = Number((await reader.getBlock({ blockTag: 'latest' })).timestamp)
    leaseServedSec = at - startedAt
    const signature = await signUsage({
      account: client.account,
      chainId: client.chain.id,
      leaseMarket: deployment().contracts.leases,
      leaseId,
      servedSec: leaseServedSec,
      at,
    })
    await redeemUsage(provider, {
      deployment: deployment(),
      leaseId,
      servedSec: leaseServedSec,
      at,
      signature,
    })
  })

  it('reads the chain without an indexer: earnings from ReplicaPaid, current work from claims', async () => {
    const summary = await getProviderSummary(reader, {
      deployment: deployment(),
      provider: provider.account.address,
    })
    expect(summary).toMatchObject({
      provider: provider.account.address,
      registered: true,
      paused: false,
      capabilities: { gpuCount: 1, vramMiB: 24_576, computeCapability: 89 },
      priceFloor: 0n,
      record: { claimed: 2, completed: 1, failed: 0, outvoted: 0, successBps: 10_000, audits: undefined },
      stake: { staked: grid('200'), locked: grid('1') },
      sources: undefined,
      readFrom: 'chain',
    })
    expect(summary.earnings.paid).toBe(grid('5'))
    expect(summary.earnings.fees).toBeGreaterThan(0n)
    expect(summary.earnings.earned).toBe(summary.earnings.paid - summary.earnings.fees)
    // Its lease, from the lease market's events.
    const { protocolFeeBps } = await getLeaseParams(reader, { deployment: deployment() })
    const leasePaid = leasePrice * BigInt(leaseServedSec)
    const leaseFees = (leasePaid * BigInt(protocolFeeBps)) / 10_000n
    expect(summary.leases).toEqual({
      accepted: 1,
      paid: leasePaid,
      fees: leaseFees,
      earned: leasePaid - leaseFees,
      penalties: 0n,
    })
    expect(summary.currentTasks.map((task) => [task.taskId, task.status])).toEqual([[working, 'Claimed']])
  })

  it('reads the profile from the indexer and the current tasks it lists from the chain', async () => {
    const address = provider.account.address
    const requests: string[] = []
    server.use(
      http.get(`${URL}/providers/:address`, ({ params }) => {
        requests.push(`/providers/${params.address}`)
        return HttpResponse.json(indexedProvider())
      }),
      http.get(`${URL}/tasks`, ({ request }) => {
        const query = new globalThis.URL(request.url).searchParams
        requests.push(`/tasks?provider=${query.get('provider')}&status=${query.get('status')}`)
        return HttpResponse.json({ items: [{ id: working.toString() }], nextCursor: null })
      }),
    )
    const summary = await getProviderSummary(reader, {
      deployment: deployment(),
      provider: address,
      indexer: URL,
    })
    expect(requests.sort()).toEqual([
      `/providers/${address}`,
      `/tasks?provider=${address}&status=Open,Claimed,Revealing,Held,Auditing`,
    ])
    expect(summary).toMatchObject({
      registered: true,
      registeredAt: new Date(1_700_000_000_000),
      capabilities: { gpuCount: 2, vramMiB: 81_920, computeCapability: 90, cpuCores: 32, memoryMiB: 262_144 },
      priceFloor: 7n,
      record: {
        claimed: 4,
        audits: 1,
        completed: 3,
        failedRuns: 0,
        failed: 1,
        outvoted: 0,
        successBps: 7_500,
        slashedAmount: 9n,
        runtimeSec: 90,
      },
      earnings: { paid: 1_000n, fees: 100n, earned: 900n },
      leases: { accepted: 2, paid: 300n, fees: 15n, earned: 285n, penalties: 7n },
      stake: { staked: 50n, locked: 20n, available: 30n, unbonding: 0n, unbondingReadyAt: undefined },
      sources: [1, 3],
      readFrom: 'indexer',
    })
    expect(summary.currentTasks.map((task) => task.taskId)).toEqual([working])
  })

  it('asks the chain about an address the indexer does not know, without calling it a fallback', async () => {
    const onFallback = vi.fn()
    server.use(
      http.get(`${URL}/providers/:address`, () =>
        HttpResponse.json({ error: { parameter: 'address', message: 'no provider' } }, { status: 404 }),
      ),
      http.get(`${URL}/tasks`, () => HttpResponse.json({ items: [], nextCursor: null })),
    )
    const stranger = (await fundedClient({ grid: '0' })).account.address
    const summary = await getProviderSummary(reader, {
      deployment: deployment(),
      provider: stranger,
      indexer: createIndexerClient({ url: URL, onFallback }),
    })
    expect(summary).toMatchObject({
      registered: false,
      registeredAt: undefined,
      earnings: { paid: 0n, fees: 0n, earned: 0n },
      leases: { accepted: 0, paid: 0n, fees: 0n, earned: 0n, penalties: 0n },
      currentTasks: [],
      readFrom: 'chain',
    })
    expect(onFallback).not.toHaveBeenCalled()
  })

  it('falls back to the chain when the indexer fails, and says so', async () => {
    const fallbacks: IndexerFallback[] = []
    server.use(
      http.get(`${URL}/providers/:address`, () => new HttpResponse(null, { status: 503 })),
      http.get(`${URL}/tasks`, () => new HttpResponse(null, { status: 503 })),
    )
    const parameters = { deployment: deployment(), provider: provider.account.address }
    const summary = await getProviderSummary(reader, {
      ...parameters,
      indexer: createIndexerClient({ url: URL, onFallback: (fallback) => fallbacks.push(fallback) }),
    })
    expect(summary).toEqual(await getProviderSummary(reader, parameters))
    expect(fallbacks.map(({ action }) => action)).toContain('getProviderSummary')
  })
})

/** A `ProviderDetail` as the indexer answers it (fields the SDK does not read included). */
function indexedProvider() {
  const time = (unix: number) => ({ unix, iso: new Date(unix * 1000).toISOString() })
  return {
    address: '0x0000000000000000000000000000000000000001',
    registeredAt: time(1_700_000_000),
    updatedAt: time(1_700_000_100),
    paused: false,
    capabilities: { gpuCount: 2, vramMiB: 81_920, computeCapability: 90, cpuCores: 32, memoryMiB: 262_144 },
    profileCid: anyCid,
    priceFloor: '7',
    subscriptions: 2,
    tasksRun: 3,
    record: {
      claims: 4,
      audits: 1,
      completed: 3,
      failedRuns: 0,
      failed: 1,
      outvoted: 0,
      slashes: 1,
      slashedAmount: '9',
    },
    reputation: { completed: 3, failed: 1, outvoted: 0, successBps: 7_500 },
    earnings: { paid: '1000', fees: '100', earned: '900', runtimeSec: 90 },
    leases: { accepted: 2, paid: '300', fees: '15', earned: '285', penalties: '7' },
    stake: {
      staked: '50',
      locked: '20',
      unbonding: '0',
      unbondingReadyAt: null,
      withdrawn: '0',
      slashed: '9',
    },
    sources: [1, 3],
  }
}
