import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  availableStake,
  marketBalance,
  outputCid,
  publishTestSource,
  rejection,
  reputation,
  submitTestTask,
  testProvider,
  tokenBalance,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from './claimTask.js'
import { submitResult } from './submitResult.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('submitResult', () => {
  it('runs a single-replica task from submission to payment', async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '5' })

    const claim = await claimTask(provider, { deployment: deployment(), taskId })
    expect(claim).toMatchObject({
      taskId,
      provider: provider.account.address,
      slot: 0,
      collateral: grid('2.5'),
    })
    expect(claim.dueAt).toBeInstanceOf(Date)
    expect(claim.dueAt.getTime()).toBeGreaterThan(Date.now())
    expect(await availableStake(provider.account.address)).toBe(grid('197.5'))

    const result = await outputCid('the output')
    const settled = await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result,
      receipt: anyCid,
      runtimeSec: 30,
    })
    expect(settled).toMatchObject({
      taskId,
      held: false,
      provider: provider.account.address,
      result,
      receipt: anyCid,
      payment: grid('5'),
      fee: grid('0.25'),
      refund: 0n,
    })
    // The runtime is capped at the time since the claim (a few seconds here).
    expect(settled.runtimeSec).toBeGreaterThan(0)
    expect(settled.runtimeSec).toBeLessThan(30)
    expect(await marketBalance(provider.account.address)).toBe(grid('4.75'))
    expect(await marketBalance(client.account.address)).toBe(0n)
    expect(await tokenBalance(client.account.address)).toBe(grid('5'))
    expect(await availableStake(provider.account.address)).toBe(grid('200'))
    expect((await reputation(provider.account.address)).completed).toBe(1)
  })

  it('holds the result of an auditable task (one replica of a deterministic source) for its audit draw', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    await claimTask(provider, { deployment: deployment(), taskId })
    const result = await outputCid('a deterministic output')
    const held = await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result,
      receipt: anyCid,
      runtimeSec: 1,
    })
    expect(held).toMatchObject({ taskId, held: true, result, payment: 0n, fee: 0n, refund: 0n })
    // Nothing is paid and the collateral (9 × maxPayment at the default 10 %) stays locked until releaseResult.
    expect(await marketBalance(provider.account.address)).toBe(0n)
    expect(await availableStake(provider.account.address)).toBe(grid('191'))
    // The completion counts at once.
    expect((await reputation(provider.account.address)).completed).toBe(1)
  })

  it('pays a metered task by the capped runtime and refunds the rest', async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '5', pricePerSecond: '0.01' })
    await claimTask(provider, { deployment: deployment(), taskId })
    const settled = await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result: anyCid,
      receipt: anyCid,
      runtimeSec: 3_600,
    })
    expect(settled.payment).toBe(grid('0.01') * BigInt(settled.runtimeSec))
    expect(settled.refund).toBe(grid('5') - settled.payment)
    expect(await marketBalance(client.account.address)).toBe(settled.refund)
  })

  it('refuses a result from an account that did not claim the task', async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const intruder = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    await claimTask(provider, { deployment: deployment(), taskId })
    const error = await rejection(
      submitResult(intruder, {
        deployment: deployment(),
        taskId,
        result: anyCid,
        receipt: anyCid,
        runtimeSec: 1,
      }),
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error).toMatchObject({
      errorName: 'TaskMarketNotClaimant',
      args: [taskId, intruder.account.address],
      hint: `${intruder.account.address} holds no claim on task ${taskId}: send from the account that claimed it (a reopened slot is no longer yours)`,
    })
  })

  it('names every bad field before sending', async () => {
    const provider = await approvedClient({ grid: '1' })
    const nonce = await provider.getTransactionCount({ address: provider.account.address })
    const error = await rejection(
      submitResult(provider, {
        deployment: deployment(),
        taskId: 0,
        result: 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG',
        receipt: '',
        runtimeSec: -1,
      }),
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual([
      'taskId',
      'result',
      'receipt',
      'runtimeSec',
    ])
    expect((error as InvalidParametersError).message).toContain('ipfs cid format -v 1')
    expect(await provider.getTransactionCount({ address: provider.account.address })).toBe(nonce)
  })
})
