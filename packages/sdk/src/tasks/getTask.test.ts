import { parseUnits, zeroHash } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient, testClient } from '../../test/chain.js'
import {
  anyCid,
  cancel,
  claim,
  commit,
  expire,
  finalize,
  publishSource,
  registerFixtureProvider,
  reveal,
  sealOfResult,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import { TaskNotFoundError } from '../errors/task.js'
import { InvalidParametersError } from '../errors/validation.js'
import { isFinalStatus } from '../types/task.js'
import { getTask } from './getTask.js'

const read = (taskId: bigint, includeInput?: boolean) =>
  getTask(testClient(), { deployment: deployment(), taskId, includeInput })

async function replicatedTask() {
  const d = deployment()
  const creator = await fundedClient()
  const sourceId = await publishSource(creator, d, { deterministic: true })
  const [client, first, second] = await Promise.all([fundedClient(), fundedClient(), fundedClient()])
  await Promise.all([
    registerFixtureProvider(first, d, [sourceId]),
    registerFixtureProvider(second, d, [sourceId]),
  ])
  const {
    taskIds: [taskId = 0n],
  } = await submitFixtureTasks(client, d, { sourceId, replicas: 2 })
  await claim(first, d, taskId)
  await claim(second, d, taskId)
  return { d, taskId, first, second }
}

describe('getTask', () => {
  it('reads an open task with its terms, gates, input and result key', async () => {
    const d = deployment()
    const client = await fundedClient()
    const sourceId = await publishSource(client, d)
    const resultKey = `0x${'ab'.repeat(32)}` as const
    const { taskIds } = await submitFixtureTasks(client, d, { sourceId, maxPayment: '2', resultKey })
    const taskId = taskIds[0] ?? 0n
    const task = await read(taskId, true)
    expect(task).toMatchObject({
      taskId,
      client: client.account.address,
      sourceId,
      replicas: 1,
      status: 'Open',
      maxPayment: parseUnits('2', 18),
      pricePerSecond: 0n,
      creatorFeeBps: 0,
      discountBps: 0,
      requirements: { minGpus: 0, minVramMiB: 0, minComputeCapability: 0, maxRuntimeSec: 7 * 86_400 },
      gates: { minSuccessBps: 0, minCompleted: 0 },
      revealDeadline: undefined,
      inputCID: anyCid,
      resultKey,
    })
    // Fee and collateral follow the market's parameters at submission (other tests may change them).
    expect(task.feeBps).toBeGreaterThan(0)
    expect(task.feeBps).toBeLessThanOrEqual(2_000)
    expect(task.collateral).toBeGreaterThan(0n)
    expect(task.deadline.getTime()).toBeGreaterThan(Date.now() + 28 * 86_400_000)
    expect(task.slots).toEqual([
      {
        index: 0,
        status: 'Free',
        provider: undefined,
        claimedAt: undefined,
        dueAt: undefined,
        committedAt: undefined,
        commitment: undefined,
        resultDigest: undefined,
        runtimeSec: undefined,
      },
    ])
    expect('inputCID' in (await read(taskId))).toBe(false)
    expect('resultKey' in (await read(taskId))).toBe(false)
    // A task without a key says so: the zero hash, its output in the clear.
    const {
      taskIds: [clear = 0n],
    } = await submitFixtureTasks(client, d, { sourceId })
    expect((await read(clear, true)).resultKey).toBe(zeroHash)
    expect(isFinalStatus(task.status)).toBe(false)
  })

  it('follows a single-replica task through Claimed to Completed', async () => {
    const d = deployment()
    const [client, provider] = await Promise.all([fundedClient(), fundedClient()])
    const sourceId = await publishSource(client, d)
    await registerFixtureProvider(provider, d, [sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, d, { sourceId })
    await claim(provider, d, taskId)
    const claimed = await read(taskId)
    expect(claimed.status).toBe('Claimed')
    expect(claimed.slots[0]).toMatchObject({ status: 'Claimed', provider: provider.account.address })
    expect(claimed.slots[0]?.dueAt?.getTime()).toBeGreaterThan(claimed.slots[0]?.claimedAt?.getTime() ?? 0)

    await submit(provider, d, taskId)
    const completed = await read(taskId)
    expect(completed.status).toBe('Completed')
    expect(completed.slots[0]).toMatchObject({ status: 'Submitted', provider: provider.account.address })
    // A single replica's runtime is only in its ResultSubmitted event (see getTaskResult).
    expect(completed.slots[0]?.runtimeSec).toBeUndefined()
    expect(isFinalStatus(completed.status)).toBe(true)
  })

  it('reads commitments, Revealing, a dispute of two replicas and its Failed lapse', async () => {
    const { d, taskId, first, second } = await replicatedTask()
    // Before a dispute a task with replicas has no audit (its audit record is the race for its seats).
    expect((await read(taskId)).audit).toBeUndefined()
    await commit(first, d, taskId, 'bafkreifirstresult')
    const committing = await read(taskId)
    expect(committing).toMatchObject({ status: 'Claimed', replicas: 2, committed: 1, revealed: 0 })
    expect(committing.slots[0]?.status).toBe('Committed')
    expect(committing.slots[0]?.commitment).toMatch(/^0x[0-9a-f]{64}$/)
    expect(committing.slots[0]?.committedAt).toBeInstanceOf(Date)
    expect(committing.slots[0]?.dueAt).toBeUndefined()
    expect(committing.slots[1]?.status).toBe('Claimed')
    expect(committing.requirements.deterministic).toBe(true)

    await commit(second, d, taskId, 'bafkreisecondresult')
    const revealing = await read(taskId)
    expect(revealing.status).toBe('Revealing')
    expect(revealing.revealDeadline?.getTime()).toBeGreaterThan(
      revealing.slots[1]?.committedAt?.getTime() ?? 0,
    )

    await reveal(first, d, taskId, 'bafkreifirstresult', { runtimeSec: 0 })
    const halfRevealed = await read(taskId)
    expect(halfRevealed.slots[0]).toMatchObject({
      status: 'Submitted',
      resultDigest: sealOfResult(taskId, 'bafkreifirstresult'),
      commitment: undefined,
    })
    await reveal(second, d, taskId, 'bafkreisecondresult')
    // The results differ: disputed, read like an audit, its auditor's slot after the replicas'.
    const disputed = await read(taskId)
    expect(disputed).toMatchObject({
      status: 'Auditing',
      revealed: 2,
      audit: { verdict: 'pending', round: 1, firstSlot: 2, auditors: 1 },
    })
    expect(disputed.slots.map((slot) => slot.status)).toEqual(['Submitted', 'Submitted', 'Free'])
    expect(isFinalStatus(disputed.status)).toBe(false)

    // Nobody joins the 2-minute round: the dispute lapses, and without a majority the task fails.
    await testClient().increaseTime({ seconds: 121 })
    await testClient().mine({ blocks: 1 })
    await finalize(first, d, taskId)
    const failed = await read(taskId)
    expect(failed.status).toBe('Failed')
    expect(failed.revealed).toBe(2)
    expect(failed.audit).toMatchObject({ verdict: 'lapsed', round: 1, firstSlot: 2 })
    expect(failed.slots.map((slot) => slot.resultDigest)).toEqual([
      sealOfResult(taskId, 'bafkreifirstresult'),
      sealOfResult(taskId, 'bafkreisecondresult'),
      undefined,
    ])
    expect(failed.slots.every((slot) => slot.resultDigest !== zeroHash)).toBe(true)
  })

  it('reads Cancelled and Expired tasks', async () => {
    const d = deployment()
    const client = await fundedClient()
    const sourceId = await publishSource(client, d)
    const {
      taskIds: [cancelled = 0n],
    } = await submitFixtureTasks(client, d, { sourceId })
    const {
      taskIds: [expiring = 0n],
    } = await submitFixtureTasks(client, d, { sourceId, deadlineIn: 60 })
    await cancel(client, d, cancelled)
    expect((await read(cancelled)).status).toBe('Cancelled')

    await testClient().increaseTime({ seconds: 61 })
    await testClient().mine({ blocks: 1 })
    expect((await read(expiring)).status).toBe('Open')
    await expire(client, d, expiring)
    expect((await read(expiring)).status).toBe('Expired')
  })

  it('throws TaskNotFoundError for an id no task has', async () => {
    const error = await read(1_000_000_000n).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(TaskNotFoundError)
    expect((error as TaskNotFoundError).taskIds).toEqual([1_000_000_000n])
    expect((error as TaskNotFoundError).shortMessage).toBe('Task 1000000000 does not exist.')
  })

  it('refuses ids that are not task ids before reading', async () => {
    for (const taskId of [0, -1, 1.5, 'seven', 2n ** 256n] as never[]) {
      const error = await getTask(testClient(), { deployment: deployment(), taskId }).catch(
        (error: unknown) => error,
      )
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields[0]?.path).toBe('taskId')
    }
  })
})
