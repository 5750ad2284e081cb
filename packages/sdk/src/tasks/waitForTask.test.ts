import { createPublicClient, custom, http, parseUnits } from 'viem'
import { hardhat } from 'viem/chains'
import { describe, expect, it, vi } from 'vitest'
import { deployment, devnet, fundedClient, testClient } from '../../test/chain.js'
import {
  cancel,
  claim,
  closeJoining,
  commit,
  expire,
  finalize,
  publishSource,
  registerFixtureProvider,
  reveal,
  submit,
  submitFixtureTasks,
} from '../../test/fixtures.js'
import {
  TaskCancelledError,
  TaskDeadlinePassedError,
  TaskExpiredError,
  TaskFailedError,
  TaskNotFoundError,
  TaskRevealClosedError,
  WaitForTaskTimeoutError,
} from '../errors/task.js'
import type { TaskStatus } from '../types/task.js'
import { type WaitForTaskParameters, waitForTask } from './waitForTask.js'

const reader = () => createPublicClient({ chain: hardhat, transport: http(devnet().rpcUrl) })

const wait = (taskId: bigint, options: Omit<WaitForTaskParameters, 'deployment' | 'taskId'> = {}) =>
  waitForTask(reader(), { deployment: deployment(), taskId, pollingInterval: 100, ...options })

async function openTask({ replicas = 1, providers = 1, deadlineIn = 29 * 86_400 } = {}) {
  const d = deployment()
  const client = await fundedClient()
  const workers = await Promise.all(Array.from({ length: providers }, () => fundedClient()))
  const sourceId = await publishSource(client, d, { deterministic: replicas > 1 })
  await Promise.all(workers.map((worker) => registerFixtureProvider(worker, d, [sourceId])))
  const {
    taskIds: [taskId = 0n],
  } = await submitFixtureTasks(client, d, { sourceId, replicas, deadlineIn, maxPayment: '2' })
  return { d, client, workers, sourceId, taskId }
}

async function passTime(seconds: number) {
  await testClient().increaseTime({ seconds })
  await testClient().mine({ blocks: 1 })
}

describe('waitForTask', () => {
  it('resolves with the completed task and its result, reporting each status', async () => {
    const { d, workers, taskId } = await openTask()
    const [provider] = workers
    if (provider === undefined) throw new Error('no provider')
    const progress: [TaskStatus | undefined, TaskStatus][] = []
    const waiting = wait(taskId, {
      onProgress: ({ previousStatus, status, task }) => {
        expect(task.status).toBe(status)
        progress.push([previousStatus, status])
      },
    })
    await vi.waitFor(() => expect(progress).toEqual([[undefined, 'Open']]))
    await claim(provider, d, taskId)
    await vi.waitFor(() => expect(progress).toHaveLength(2))
    await submit(provider, d, taskId, { result: 'bafkreitheoutput' })
    const { task, result } = await waiting
    expect(task.status).toBe('Completed')
    expect(result.resultCID).toBe('bafkreitheoutput')
    expect(result.settlement?.paid).toBe(parseUnits('2', 18))
    expect(progress).toEqual([
      [undefined, 'Open'],
      ['Open', 'Claimed'],
      ['Claimed', 'Completed'],
    ])
  })

  it('waits through the dispute of two replicas that disagree, then rejects with TaskFailedError and the refund when it lapses', async () => {
    const { d, workers, taskId } = await openTask({ replicas: 2, providers: 2 })
    const progress: TaskStatus[] = []
    const waiting = wait(taskId, { onProgress: ({ status }) => progress.push(status) }).catch(
      (error: unknown) => error,
    )
    const outputs = ['bafkreione', 'bafkreitwo']
    for (const worker of workers) await claim(worker, d, taskId)
    for (const [index, worker] of workers.entries()) await commit(worker, d, taskId, outputs[index] ?? '')
    for (const [index, worker] of workers.entries()) await reveal(worker, d, taskId, outputs[index] ?? '')
    // Disputed: not settled, so the wait goes on until nobody has joined its round in time and it lapses.
    await vi.waitFor(() => expect(progress.at(-1)).toBe('Auditing'), { timeout: 10_000 })
    await closeJoining(workers[0]!, d, taskId)
    await finalize(workers[0]!, d, taskId)
    const error = await waiting
    expect(error).toBeInstanceOf(TaskFailedError)
    expect(error).toMatchObject({
      taskId,
      status: 'Failed',
      refund: parseUnits('4', 18),
      disputed: true,
      audit: 'lapsed',
    })
    expect((error as TaskFailedError).hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect((error as TaskFailedError).shortMessage).toBe(
      `Task ${taskId} failed: the replicas' results found no majority.`,
    )
  })

  it('rejects with TaskCancelledError when the client cancels', async () => {
    const { d, client, taskId } = await openTask()
    const waiting = wait(taskId).catch((error: unknown) => error)
    const { transactionHash } = await cancel(client, d, taskId)
    const error = await waiting
    expect(error).toBeInstanceOf(TaskCancelledError)
    expect(error).toMatchObject({
      taskId,
      status: 'Cancelled',
      refund: parseUnits('2', 18),
      hash: transactionHash,
    })
  })

  it('settles at once for a task already final', async () => {
    const { d, client, workers, sourceId, taskId } = await openTask({ deadlineIn: 120 })
    const [provider] = workers
    if (provider === undefined) throw new Error('no provider')
    const {
      taskIds: [done = 0n],
    } = await submitFixtureTasks(client, d, { sourceId })
    await claim(provider, d, done)
    await submit(provider, d, done)
    await passTime(121)
    await expire(client, d, taskId)

    let requests = 0
    const node = reader()
    const counted = createPublicClient({
      chain: hardhat,
      transport: custom({
        request: ({ method, params }) => {
          requests++
          return node.request({ method, params } as never)
        },
      }),
    })
    const started = Date.now()
    const expired = await waitForTask(counted, { deployment: d, taskId, pollingInterval: 5_000 }).catch(
      (error: unknown) => error,
    )
    expect(expired).toBeInstanceOf(TaskExpiredError)
    expect(expired).toMatchObject({ taskId, status: 'Expired', refund: parseUnits('2', 18) })
    const completed = await waitForTask(counted, { deployment: d, taskId: done, pollingInterval: 5_000 })
    expect(completed.task.status).toBe('Completed')
    expect(Date.now() - started).toBeLessThan(5_000)
    // Each: getTask (2 calls), the latest block, getTaskResult (getTask and 7 log reads); no watch installed.
    expect(requests).toBe(2 * 12)
  })

  it('rejects with TaskDeadlinePassedError when the deadline passed and nobody expired the task', async () => {
    const { taskId } = await openTask({ deadlineIn: 60 })
    const waiting = wait(taskId).catch((error: unknown) => error)
    await passTime(61)
    const error = await waiting
    expect(error).toBeInstanceOf(TaskDeadlinePassedError)
    expect(error).toMatchObject({ taskId, status: 'Open', refund: parseUnits('2', 18) })
    expect((error as TaskDeadlinePassedError).metaMessages[0]).toContain(`expireTask({ taskId: ${taskId}n })`)
  })

  it('rejects with TaskRevealClosedError when reveals are over and nobody finalised', async () => {
    const { d, workers, taskId } = await openTask({ replicas: 2, providers: 2 })
    for (const worker of workers) await claim(worker, d, taskId)
    for (const worker of workers) await commit(worker, d, taskId, 'bafkreisame')
    await passTime(601)
    const error = await wait(taskId).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(TaskRevealClosedError)
    expect((error as TaskRevealClosedError).metaMessages[0]).toContain('finalizeTask')
  })

  it('times out with the last status seen', async () => {
    const { taskId } = await openTask()
    const error = await wait(taskId, { timeout: 300 }).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(WaitForTaskTimeoutError)
    expect(error).toMatchObject({ taskId, status: 'Open', timeout: 300 })
  })

  it('still settles by reading the task when every event is lost', async () => {
    const { d, workers, taskId } = await openTask()
    const [provider] = workers
    if (provider === undefined) throw new Error('no provider')
    const node = reader()
    const lossy = createPublicClient({
      chain: hardhat,
      transport: custom(
        {
          request: async ({ method, params }) => {
            if (method === 'eth_newFilter') throw new Error('filters are not supported')
            if (method === 'eth_getFilterChanges' || method === 'eth_getLogs') {
              // Only getTaskResult's reads (with a fromBlock far back) get logs; the watch gets none.
              const [filter] = params as [{ fromBlock?: string; toBlock?: string }]
              if (filter.fromBlock !== undefined && BigInt(filter.fromBlock) <= BigInt(d.blockNumber)) {
                return node.request({ method, params } as never)
              }
              return []
            }
            return node.request({ method, params } as never)
          },
        },
        { retryCount: 0 },
      ),
    })
    const waiting = waitForTask(lossy, { deployment: d, taskId, pollingInterval: 100 })
    await claim(provider, d, taskId)
    await submit(provider, d, taskId, { result: 'bafkreifoundbypolling' })
    const { result } = await waiting
    expect(result.resultCID).toBe('bafkreifoundbypolling')
  })

  it('rejects unknown tasks and bad parameters', async () => {
    await expect(wait(999_999_995n)).rejects.toBeInstanceOf(TaskNotFoundError)
    await expect(wait(0n)).rejects.toThrow('invalid `taskId`')
  })
})
