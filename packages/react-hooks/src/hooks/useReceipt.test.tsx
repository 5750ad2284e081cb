import { type Receipt, signReceipt, type UnsignedReceipt } from '@gridforge/sdk'
import { type ContentStore, memoryStore } from '@gridforge/sdk/storage'
import { waitFor } from '@testing-library/react'
import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../../sdk/test/chain.js'
import {
  cids,
  claim,
  publishTestSource,
  randomBytes32,
  submit,
  submitFixtureTasks,
  testProvider,
} from '../../../sdk/test/fixtures.js'
import { testConfig } from '../../test/config.js'
import { renderWithConfig } from '../../test/render.js'
import { useReceipt } from './useReceipt.js'
import { useTask } from './useTask.js'

const maxPayment = parseUnits('5', 18)

/** A memory store that counts the documents read from it. */
function countingStore() {
  const store = memoryStore()
  let reads = 0
  const counted: Pick<ContentStore, 'get'> = {
    get: (...args) => {
      reads += 1
      return store.get(...args)
    },
  }
  return { store, counted, reads: () => reads }
}

/**
 * A claimed single-replica task whose provider will answer with `cids.output`
 * and a receipt: `settle(tamper)` signs the honest receipt, lets `tamper` edit
 * the signed document, stores it and submits the result.
 */
async function claimedTask() {
  const { config, client } = await testConfig()
  const imageDigest = randomBytes32()
  const sourceId = await publishTestSource({ owner: client, imageDigest, maxRuntimeSec: 600 })
  const provider = await testProvider([sourceId])
  const {
    taskIds: [taskId = 0n],
  } = await submitFixtureTasks(client, deployment(), { sourceId, maxPayment: '5' })
  const { slot, claimedAt } = await claim(provider, deployment(), taskId)
  const { store, counted, reads } = countingStore()
  // Blocks are at least a second apart: a 1 s runtime fits between the claim and the result.
  const runtimeSec = 1
  const honest: UnsignedReceipt = {
    version: 1,
    chainId: 31337,
    market: deployment().contracts.market,
    taskId: String(taskId),
    slot,
    sourceId,
    imageDigest,
    inputCID: cids.input,
    outputCID: cids.output,
    logsCID: cids.logs,
    provider: provider.account.address,
    startedAt: claimedAt,
    finishedAt: claimedAt + runtimeSec,
    runtimeSec,
    exitCode: 0,
    hardware: {
      gpus: [{ name: 'NVIDIA L4', vramMiB: 23_034, computeCapability: 89 }],
      cpuCores: 8,
      memoryMiB: 32_768,
    },
  }
  const settle = async (tamper: (receipt: Receipt) => Receipt = (receipt) => receipt) => {
    const document = tamper(await signReceipt(provider, { receipt: honest }))
    const receiptCID = await store.putJson(document)
    const submitted = await submit(provider, deployment(), taskId, {
      result: cids.output,
      receipt: receiptCID,
      runtimeSec,
    })
    return { document, receiptCID, submitted }
  }
  return { config, client, provider, taskId, store: counted, reads, settle }
}

describe('useReceipt', () => {
  it('stays idle while the task is not settled, then verifies the honest receipt', async () => {
    const task = await claimedTask()
    const { result } = renderWithConfig(
      () => {
        const live = useTask({ taskId: task.taskId })
        const settled = live.data?.status === 'Completed' || live.data?.status === 'Failed'
        return {
          task: live,
          receipt: useReceipt({ taskId: task.taskId, store: task.store, query: { enabled: settled } }),
        }
      },
      { config: task.config },
    )
    await waitFor(() => expect(result.current.task.data?.status).toBe('Claimed'))
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(result.current.receipt).toMatchObject({ status: 'pending', fetchStatus: 'idle', data: undefined })
    expect(task.reads()).toBe(0)

    const { document, receiptCID, submitted } = await task.settle()
    await waitFor(() => expect(result.current.receipt.isSuccess).toBe(true))
    expect(result.current.task.data?.status).toBe('Completed')
    expect(result.current.receipt.data).toEqual([
      {
        status: 'verified',
        receipt: document,
        settlement: expect.objectContaining({
          taskId: task.taskId,
          status: 'Completed',
          client: task.client.account.address,
          slot: 0,
          provider: task.provider.account.address,
          resultCID: cids.output,
          receiptCID,
          runtimeSec: 1,
          paid: true,
          payment: maxPayment,
          refund: 0n,
          hash: submitted.transactionHash,
          blockNumber: submitted.blockNumber,
        }),
      },
    ])
    expect(task.reads()).toBe(1)
    expect(result.current.receipt.queryKey).toEqual([
      'gridforge',
      'receipt',
      { chainId: 31337, market: deployment().contracts.market, taskId: task.taskId },
    ])
  })

  it('reports a receipt edited after signing as a mismatch, field by field', async () => {
    const task = await claimedTask()
    const { document } = await task.settle((receipt) => ({ ...receipt, outputCID: cids.otherOutput }))
    const { result } = renderWithConfig(() => useReceipt({ taskId: task.taskId, store: task.store }), {
      config: task.config,
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    const [entry] = result.current.data ?? []
    expect(entry).toMatchObject({
      status: 'mismatch',
      receipt: document,
      settlement: expect.objectContaining({
        resultCID: cids.output,
        provider: task.provider.account.address,
      }),
    })
    // The signature no longer recovers to the claimant, and the output is not the one on chain.
    expect(entry?.status === 'mismatch' && entry.mismatches).toEqual([
      {
        field: 'signature',
        expected: `signed by ${task.provider.account.address}`,
        actual: expect.stringMatching(/^signed by 0x[0-9a-fA-F]{40}$/),
      },
      { field: 'outputCID', expected: cids.output, actual: cids.otherOutput },
    ])
  })
})
