import { DeploymentNotFoundError } from '@gridforge/contracts'
import type { TaskStatus } from '@gridforge/sdk'
import { failureDigest } from '@gridforge/sdk'
import { useQuery } from '@tanstack/react-query'
import { waitFor } from '@testing-library/react'
import { type Hex, http, parseUnits } from 'viem'
import { localhost } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import { deployment, devnet, testClient } from '../../../sdk/test/chain.js'
import {
  cids,
  claim,
  commit,
  countingTransport,
  publishTestSource,
  release,
  reveal,
  submit,
  submitFixtureTasks,
  testProvider,
} from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { callsOf, filterInstalled } from '../../test/watching.js'
import { useTask } from './useTask.js'

/** Renders `useTask` and records every status it shows, in order, without repeats. */
function renderTask(config: Parameters<typeof renderWithConfig>[1]['config'], taskId: bigint) {
  const statuses: TaskStatus[] = []
  const rendered = renderWithConfig(
    () => {
      const task = useTask({ taskId })
      const status = task.data?.status
      if (status !== undefined && statuses.at(-1) !== status) statuses.push(status)
      return task
    },
    { config },
  )
  return { ...rendered, statuses }
}

describe('useTask', () => {
  it('shows an audited result Held, then Auditing with its audit', async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client, deterministic: true, maxRuntimeSec: 60 })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, maxPayment: '2', auditBps: 10_000 })
    await claim(provider, deployment(), taskId)
    await submit(provider, deployment(), taskId, { result: cids.output })

    const { result, statuses } = renderTask(config, taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Held'))
    expect(result.current.data).toMatchObject({ auditBps: 10_000, audit: { verdict: 'none', round: 0 } })

    // The draw reads the hash of the block after the submission; then the released result is audited.
    await testClient().mine({ blocks: 2 })
    await release(client, deployment(), taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Auditing'))
    expect(result.current.data?.audit).toMatchObject({ verdict: 'pending', round: 1, auditors: 1 })
    expect(statuses).toEqual(['Held', 'Auditing'])
  })

  it('shows the dispute of two replicas whose results differ, audited like a held result', async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client, deterministic: true })
    const providers = await Promise.all([0, 1].map(() => testProvider([sourceId])))
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, replicas: 2 })
    for (const provider of providers) await claim(provider, deployment(), taskId)
    const outputs = ['bafkreione', 'bafkreitwo']
    for (const [index, provider] of providers.entries())
      await commit(provider, deployment(), taskId, outputs[index] ?? '')
    for (const [index, provider] of providers.entries())
      await reveal(provider, deployment(), taskId, outputs[index] ?? '')

    const { result } = renderTask(config, taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Auditing'))
    expect(result.current.data?.audit).toMatchObject({
      verdict: 'pending',
      round: 1,
      firstSlot: 2,
      auditors: 1,
    })
    expect(result.current.data?.slots.map((slot) => slot.status)).toEqual(['Submitted', 'Submitted', 'Free'])
  })

  it('shows a failed run: Completed, failed, and how it failed', async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client, failureFeeBps: 2_000 })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, maxPayment: '2' })
    await claim(provider, deployment(), taskId)
    await submit(provider, deployment(), taskId, {
      result: cids.logs,
      digest: failureDigest({ kind: 'exited', exitCode: 2 }),
    })

    const { result } = renderTask(config, taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Completed'))
    expect(result.current.data).toMatchObject({ failed: true, failure: { kind: 'exited', exitCode: 2 } })
  })

  it('follows a task Open → Claimed → Completed by itself, with one log watch that stops at settlement', async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client } = await testConfig({ transport: rpc.transport })
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, maxPayment: '5' })

    const { result, statuses, rerender } = renderTask(config, taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Open'))
    expect(result.current.data).toMatchObject({
      taskId,
      client: client.account.address,
      sourceId,
      replicas: 1,
      maxPayment: parseUnits('5', 18),
    })
    await filterInstalled(rpc)

    // Only the chain moves from here: no refetch, no rerender from the test.
    await claim(provider, deployment(), taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Claimed'))
    expect(result.current.data?.slots[0]).toMatchObject({
      status: 'Claimed',
      provider: provider.account.address,
    })

    // One watch: re-rendering does not start another, and it polls at the config's pace (100 ms).
    for (let i = 0; i < 5; i++) rerender({})
    const polls = callsOf(rpc, 'eth_getFilterChanges')
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(callsOf(rpc, 'eth_getFilterChanges') - polls).toBeGreaterThan(0)
    expect(callsOf(rpc, 'eth_getFilterChanges') - polls).toBeLessThanOrEqual(11)
    expect(callsOf(rpc, 'eth_newFilter')).toBe(1)

    await submit(provider, deployment(), taskId, { result: cids.output })
    await waitFor(() => expect(result.current.data?.status).toBe('Completed'))
    expect(result.current.data?.slots[0]).toMatchObject({
      status: 'Submitted',
      provider: provider.account.address,
    })
    expect(statuses).toEqual(['Open', 'Claimed', 'Completed'])

    // Settled for good: the watch is removed from the node.
    await waitFor(() => expect(callsOf(rpc, 'eth_uninstallFilter')).toBe(1))
    const after = callsOf(rpc, 'eth_getFilterChanges')
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(callsOf(rpc, 'eth_getFilterChanges')).toBe(after)
    expect(callsOf(rpc, 'eth_newFilter')).toBe(1)
  })

  it('sees a 3-replica task through its claims, its commitments (Revealing) and its reveals', async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client } = await testConfig({ transport: rpc.transport })
    const sourceId = await publishTestSource({ owner: client, deterministic: true })
    const providers = await Promise.all([0, 1, 2].map(() => testProvider([sourceId])))
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId, replicas: 3 })

    const { result, statuses } = renderTask(config, taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Open'))
    await filterInstalled(rpc)

    for (const provider of providers) await claim(provider, deployment(), taskId)
    await waitFor(() => expect(result.current.data?.status).toBe('Claimed'))
    const salts: Hex[] = []
    for (const provider of providers) salts.push(await commit(provider, deployment(), taskId, cids.output))
    await waitFor(() => expect(result.current.data?.status).toBe('Revealing'))
    expect(result.current.data).toMatchObject({ committed: 3, revealed: 0, revealDeadline: expect.any(Date) })
    expect(result.current.data?.slots.map((slot) => slot.status)).toEqual([
      'Committed',
      'Committed',
      'Committed',
    ])

    for (const [index, provider] of providers.entries())
      await reveal(provider, deployment(), taskId, cids.output, { salt: salts[index] })
    await waitFor(() => expect(result.current.data?.status).toBe('Completed'))
    expect(result.current.data?.revealed).toBe(3)
    // Open while slots are free, Claimed once all three are taken.
    expect(statuses).toEqual(['Open', 'Claimed', 'Revealing', 'Completed'])
    expect(callsOf(rpc, 'eth_newFilter')).toBe(1)
  })

  it("lives beside the app's own queries, whose keys are hashed by TanStack's default (no bigints)", async () => {
    const { config, client } = await testConfig()
    const sourceId = await publishTestSource({ owner: client })
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })
    const { result } = renderWithConfig(
      () => ({
        other: useQuery({ queryKey: ['dashboard', 'route'], queryFn: async () => 'overview' }),
        task: useTask({ taskId }),
      }),
      { config },
    )
    await waitFor(() => {
      expect(result.current.other.data).toBe('overview')
      expect(result.current.task.data?.status).toBe('Open')
    })
  })

  it('does not watch with `watch: false`', async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client } = await testConfig({ transport: rpc.transport })
    const sourceId = await publishTestSource({ owner: client })
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })
    const { result } = renderWithConfig(() => useTask({ taskId, watch: false }), { config })
    await waitFor(() => expect(result.current.data?.status).toBe('Open'))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(callsOf(rpc, 'eth_newFilter')).toBe(0)
    expect(callsOf(rpc, 'eth_getFilterChanges')).toBe(0)
    expect(callsOf(rpc, 'eth_getLogs')).toBe(0)
  })

  it('stops watching once it reads that the task is settled', async () => {
    const rpc = countingTransport(devnet().rpcUrl)
    const { config, client } = await testConfig({ transport: rpc.transport })
    const sourceId = await publishTestSource({ owner: client })
    const provider = await testProvider([sourceId])
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(client, deployment(), { sourceId })
    await claim(provider, deployment(), taskId)
    await submit(provider, deployment(), taskId)

    const { result } = renderWithConfig(() => useTask({ taskId }), { config })
    await waitFor(() => expect(result.current.data?.status).toBe('Completed'))
    // The watch starts with the first read (so that nothing is missed) and ends when the read says settled.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const polls = callsOf(rpc, 'eth_getFilterChanges') + callsOf(rpc, 'eth_getLogs')
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(callsOf(rpc, 'eth_getFilterChanges') + callsOf(rpc, 'eth_getLogs')).toBe(polls)
    expect(callsOf(rpc, 'eth_newFilter')).toBeLessThanOrEqual(1)
  })

  it('reports a chain without a known deployment as the query error and to `onWatchError`, without throwing', async () => {
    const { config } = await testConfig({
      grid: '0',
      otherChains: [{ chain: localhost, transport: http('http://127.0.0.1:1') }],
    })
    const watchErrors: Error[] = []
    const { result } = renderWithConfig(
      () => useTask({ taskId: 1n, chainId: localhost.id, onWatchError: (error) => watchErrors.push(error) }),
      { config },
    )
    await waitFor(() => expect(result.current.isError).toBe(true))
    expect(result.current.error).toBeInstanceOf(DeploymentNotFoundError)
    expect(watchErrors).toHaveLength(1)
    expect(watchErrors[0]).toBeInstanceOf(DeploymentNotFoundError)
    expect(result.current.queryKey).toEqual([
      'gridforge',
      'task',
      { chainId: 1337, market: undefined, taskId: 1n },
    ])
  })
})
