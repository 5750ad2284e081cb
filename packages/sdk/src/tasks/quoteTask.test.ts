import { createPublicClient, parseUnits } from 'viem'
import { hardhat } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient, installMulticall3, testClient, transport } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  type FixtureClient,
  publishTestSource,
  registerFixtureProvider,
  submitTestTask,
  type TestAccountClient,
} from '../../test/fixtures.js'
import { SourceInactiveError, TaskNotOpenError } from '../errors/quote.js'
import { InvalidParametersError } from '../errors/validation.js'
import { quoteTask } from './quoteTask.js'

const runtimeSec = 3_600
const grid = (amount: string) => parseUnits(amount, 18)

/** A fresh provider (one 24 GiB sm_89 GPU) staking `stakeAmount` GRID, subscribed to `sourceIds`. */
async function provider(sourceIds: readonly number[], stakeAmount = '200'): Promise<TestAccountClient> {
  const client = await fundedClient({ grid: '10000' })
  await registerFixtureProvider(client as unknown as FixtureClient, deployment(), sourceIds, { stakeAmount })
  return client
}

describe('quoteTask', () => {
  it('counts the providers that could take a task and says, dimension by dimension, why the others could not', async () => {
    // A source of its own: the devnet is shared, and only this test's providers subscribe to it.
    const sourceId = await publishTestSource({ maxRuntimeSec: runtimeSec })
    const [ready, unsubscribed, underEquipped, expensive, understaked, paused] = await Promise.all([
      provider([sourceId]),
      provider([]),
      provider([sourceId]),
      provider([sourceId]),
      provider([sourceId], '100'),
      provider([sourceId]),
    ])
    await underEquipped.updateCapabilities({
      capabilities: { gpuCount: 0, vramMiB: 8_192, computeCapability: 75, cpuCores: 8, memoryMiB: 65_536 },
      profile: anyCid,
    })
    const floorSet = await expensive.setPriceFloor({ minPricePerGpuSecond: '1' })
    await paused.pauseProvider()

    // 300 GRID over an hour on one GPU: 0.0833… GRID per GPU-second; a claim locks half of 300 (collateralBps 50 %).
    const quote = await quoteTask(ready, {
      deployment: deployment(),
      sourceId,
      maxPayment: '300',
      requirements: { minGpus: 1, minVramMiB: 16_384, minComputeCapability: 80 },
    })
    const price = grid('300') / BigInt(runtimeSec)
    expect(quote.terms).toEqual({
      sourceId,
      maxPayment: grid('300'),
      pricePerSecond: 0n,
      replicas: 1,
      requirements: {
        minGpus: 1,
        minVramMiB: 16_384,
        minComputeCapability: 80,
        maxRuntimeSec: runtimeSec,
        deterministic: false,
      },
      gates: { minSuccessBps: 0, minCompleted: 0 },
      auditBps: 0,
      collateral: grid('150'),
      pricePerGpuSecond: price,
    })
    expect(quote.eligible).toEqual({ count: 1, providers: [ready.account.address] })
    const refusalsOf = (client: TestAccountClient) =>
      quote.ineligible.providers.find((entry) => entry.provider === client.account.address)?.refusals
    expect(refusalsOf(unsubscribed)).toEqual([{ reason: 'notSubscribed' }])
    expect(refusalsOf(underEquipped)).toEqual([
      { reason: 'gpuCount', required: 1, offered: 0 },
      { reason: 'vram', required: 16_384, offered: 8_192 },
      { reason: 'computeCapability', required: 80, offered: 75 },
    ])
    expect(refusalsOf(expensive)).toEqual([{ reason: 'priceFloor', floor: grid('1'), price }])
    expect(refusalsOf(understaked)).toEqual([
      { reason: 'collateral', required: grid('150'), available: grid('100') },
    ])
    expect(refusalsOf(paused)).toEqual([{ reason: 'paused' }])
    // Grouped by reason: the same providers, under each reason that holds them back.
    expect(quote.ineligible.byReason.vram).toContain(underEquipped.account.address)
    expect(quote.ineligible.byReason.priceFloor).toContain(expensive.account.address)
    expect(quote.ineligible.byReason.collateral).toContain(understaked.account.address)
    expect(quote.ineligible.byReason.paused).toContain(paused.account.address)
    expect(quote.ineligible.byReason.notSubscribed).toContain(unsubscribed.account.address)
    expect(quote.eligible.count + quote.ineligible.count).toBe(quote.providers)
    // No task of the source yet: no price range and no time to claim, and why.
    expect(quote.history).toEqual({
      tasks: 0,
      pricePerGpuSecond: undefined,
      timeToClaimSec: undefined,
      reason: `no task of source ${sourceId} was submitted yet`,
    })

    // As of the block before the floor was set (and the pause): both would have taken it.
    const earlier = await quoteTask(ready, {
      deployment: deployment(),
      sourceId,
      maxPayment: '300',
      blockNumber: floorSet.blockNumber - 1n,
    })
    expect(earlier.blockNumber).toBe(floorSet.blockNumber - 1n)
    expect(earlier.eligible.providers).toEqual(
      expect.arrayContaining([ready.account.address, expensive.account.address, paused.account.address]),
    )

    // A cheaper task (collateral 5 GRID), gated on a record nobody here has.
    // Through the chain's Multicall3, where the chain names one: the same quote.
    const multicall3 = await installMulticall3()
    const viaMulticall3 = createPublicClient({
      chain: { ...hardhat, contracts: { multicall3: { address: multicall3 } } },
      transport: transport(),
    })
    expect(
      await quoteTask(viaMulticall3, {
        deployment: deployment(),
        sourceId,
        maxPayment: '300',
        requirements: { minGpus: 1, minVramMiB: 16_384, minComputeCapability: 80 },
        blockNumber: quote.blockNumber,
      }),
    ).toEqual(quote)

    const gated = await quoteTask(ready, {
      deployment: deployment(),
      sourceId,
      maxPayment: '10',
      minCompleted: 1,
    })
    expect(gated.eligible.count).toBe(0)
    expect(
      gated.ineligible.providers.find((entry) => entry.provider === ready.account.address)?.refusals,
    ).toEqual([{ reason: 'reputation', minCompleted: 1, completed: 0, minSuccessBps: 0, successBps: 0 }])
    expect(gated.ineligible.byReason.collateral).not.toContain(understaked.account.address)
  })

  it("reads the source's recent prices and time to claim, and answers for an open task why it waits", async () => {
    const sourceId = await publishTestSource({ maxRuntimeSec: runtimeSec })
    const [worker, expensive] = await Promise.all([provider([sourceId], '1000'), provider([sourceId])])
    await expensive.setPriceFloor({ minPricePerGpuSecond: '0.05' })
    const client = await approvedClient({ grid: '10000' })
    // Three tasks at 0.1, 0.05 and 0.2 GRID per GPU-second (2 GPUs on the last), each claimed after a minute.
    for (const task of [
      { maxPayment: '360' },
      { maxPayment: '180' },
      { maxPayment: '1440', requirements: { minGpus: 2 } },
    ] as const) {
      const { taskId } = await submitTestTask(client, sourceId, task)
      await testClient().increaseTime({ seconds: 60 })
      if (!('requirements' in task)) await worker.claimTask({ taskId })
      else {
        // Nobody here has 2 GPUs: this one waits, so it counts in neither the range nor the time to claim.
        // Through the decorator: the deployment is bound.
        const why = await client.quoteTask({ taskId })
        expect(why.taskId).toBe(taskId)
        expect(why.terms.pricePerGpuSecond).toBe(grid('0.2'))
        expect(why.eligible.count).toBe(0)
        expect(why.ineligible.byReason.gpuCount).toEqual(
          expect.arrayContaining([worker.account.address, expensive.account.address]),
        )
      }
    }
    const quote = await quoteTask(client, { deployment: deployment(), sourceId, maxPayment: '90' })
    expect(quote.history.tasks).toBe(2)
    expect(quote.history.pricePerGpuSecond).toEqual({
      min: grid('0.05'),
      median: grid('0.075'),
      max: grid('0.1'),
    })
    expect(quote.history.timeToClaimSec).toBeGreaterThanOrEqual(60)
    expect(quote.history.reason).toBeUndefined()
    // 90 GRID an hour is 0.025 per GPU-second: below the floor of 0.05.
    expect(quote.ineligible.providers.find((entry) => entry.provider === expensive.account.address)).toEqual({
      provider: expensive.account.address,
      refusals: [{ reason: 'priceFloor', floor: grid('0.05'), price: grid('90') / BigInt(runtimeSec) }],
    })
    expect(quote.eligible.providers).toContain(worker.account.address)

    // historySize keeps the most recent claimed tasks only.
    const last = await quoteTask(client, {
      deployment: deployment(),
      sourceId,
      maxPayment: '90',
      historySize: 1,
    })
    expect(last.history.pricePerGpuSecond).toEqual({
      min: grid('0.05'),
      median: grid('0.05'),
      max: grid('0.05'),
    })
  })

  it('refuses a task nobody can claim any more, an inactive source and terms a submission would refuse', async () => {
    const sourceId = await publishTestSource({ maxRuntimeSec: runtimeSec })
    const worker = await provider([sourceId])
    const client = await approvedClient({ grid: '100' })
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '10' })
    await worker.claimTask({ taskId })
    const claimed = await quoteTask(client, { deployment: deployment(), taskId }).catch(
      (error: unknown) => error,
    )
    expect(claimed).toBeInstanceOf(TaskNotOpenError)
    expect((claimed as TaskNotOpenError).status).toBe('Claimed')
    expect((claimed as TaskNotOpenError).metaMessages[0]).toContain(`gridforge task watch ${taskId}`)

    // Half an hour for a task whose runs may take an hour (+ 5 min of grace): no claim could be due in time.
    const hurried = await submitTestTask(client, sourceId, { maxPayment: '10', deadline: '30m' })
    const closed = await quoteTask(client, { deployment: deployment(), taskId: hurried.taskId })
    expect(closed.closed).toMatchObject({ reason: 'claimWindowTooShort', deadline: hurried.deadline })
    expect((closed.closed as { dueAt: number }).dueAt).toBeGreaterThan(hurried.deadline)
    // The provider itself would qualify: only the deadline stands in the way.
    expect(closed.eligible.providers).toEqual([worker.account.address])
    expect(
      (await quoteTask(client, { deployment: deployment(), sourceId, maxPayment: '10' })).closed,
    ).toBeUndefined()

    const both = await quoteTask(client, {
      deployment: deployment(),
      taskId: hurried.taskId,
      sourceId,
    } as never).catch((error: unknown) => error)
    expect((both as InvalidParametersError).fields[0]?.path).toBe('taskId')

    const replicas = await quoteTask(client, {
      deployment: deployment(),
      sourceId,
      maxPayment: '10',
      replicas: 3,
    }).catch((error: unknown) => error)
    expect(replicas).toBeInstanceOf(InvalidParametersError)
    expect((replicas as InvalidParametersError).fields[0]?.path).toBe('replicas')

    const owner = await fundedClient({ grid: '0' })
    const retired = await publishTestSource({ owner, maxRuntimeSec: runtimeSec })
    await owner.deactivateSource({ sourceId: retired })
    const inactive = await quoteTask(client, {
      deployment: deployment(),
      sourceId: retired,
      maxPayment: '1',
    }).catch((error: unknown) => error)
    expect(inactive).toBeInstanceOf(SourceInactiveError)
  })
})
