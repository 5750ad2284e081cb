import { type Hex, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, testClient } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  availableStake,
  cids,
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
import { openOutput } from '../results/openOutput.js'
import { resultKeyFromSecret } from '../results/resultKey.js'
import { sealOutput } from '../results/sealOutput.js'
import { getBytes } from '../storage/getBytes.js'
import { memoryStore } from '../storage/memoryStore.js'
import { claimTask } from './claimTask.js'
import { resultDigest } from './commitment.js'
import { failureDigest } from './failures.js'
import { getTask } from './getTask.js'
import { getTaskResult } from './getTaskResult.js'
import { sealResult } from './seal.js'
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
    // The provider hands in the seal of its output's digest: the digest itself stays off chain.
    expect(settled.digest).toBe(sealResult({ taskId, digest: resultDigest(result) }))
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

  it('hands in a sealed output: its envelope as the result, the seal of the plain output, which only the client opens', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { publicKey, secretKey } = resultKeyFromSecret(`0x${'42'.repeat(32)}`)
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1', resultKey: publicKey })
    await claimTask(provider, { deployment: deployment(), taskId })
    const task = await getTask(provider, { deployment: deployment(), taskId, includeInput: true })
    expect(task.resultKey).toBe(publicKey)

    // The provider runs it, seals its output to the task's key and hands in the envelope.
    const providerStore = memoryStore()
    const output = await providerStore.put(new TextEncoder().encode('for the client only'))
    const { cid: envelope } = await sealOutput(providerStore, {
      cid: output,
      resultKey: task.resultKey as Hex,
    })
    const held = await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result: envelope,
      output,
      receipt: anyCid,
      runtimeSec: 1,
    })
    const seal = sealResult({ taskId, digest: resultDigest(output) })
    expect(held).toMatchObject({ held: true, result: envelope, digest: seal })
    // The chain has the envelope and the seal; the held result keeps its first 8 bytes.
    const [handedIn] = (await getTaskResult(client, { deployment: deployment(), taskId })).results
    expect(handedIn).toMatchObject({ resultCID: envelope, resultDigest: seal })
    expect((await getTask(client, { deployment: deployment(), taskId })).slots[0]?.resultTag).toBe(
      seal.slice(0, 18),
    )

    // The client fetches the envelope, opens it and checks it against the seal on chain.
    const clientStore = memoryStore()
    await clientStore.put(await getBytes(providerStore, envelope))
    const opened = await openOutput(clientStore, {
      cid: envelope,
      secretKey,
      taskId,
      seal: handedIn?.resultDigest,
    })
    expect(opened.cid).toBe(output)
    expect(new TextDecoder().decode(await getBytes(clientStore, opened.cid))).toBe('for the client only')
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

  it('hands in a failed run: paid the failure fee, never slashed, counted as a failed run', async () => {
    // A fixed-price source whose failed runs are paid 20 % of the price.
    const sourceId = await publishTestSource({ failureFeeBps: 2_000 })
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '5' })
    await claimTask(provider, { deployment: deployment(), taskId })
    // The logs' CID: any CID (a blake3 one here), not an output's sha2-256 CID.
    const logs = 'bafkr4iaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    const failure = { kind: 'exited', exitCode: 2 } as const
    const settled = await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result: logs,
      failure,
      receipt: anyCid,
      runtimeSec: 5,
    })
    expect(settled).toMatchObject({
      taskId,
      held: false,
      result: logs,
      digest: failureDigest(failure),
      failure,
      payment: grid('1'),
      fee: grid('0.05'),
      refund: grid('4'),
    })
    expect(await marketBalance(provider.account.address)).toBe(grid('0.95'))
    expect(await availableStake(provider.account.address)).toBe(grid('200'))
    expect(await reputation(provider.account.address)).toMatchObject({ completed: 0, failedRuns: 1 })

    const task = await getTask(provider, { deployment: deployment(), taskId })
    expect(task).toMatchObject({ status: 'Completed', failed: true, failure })
    const result = await getTaskResult(provider, { deployment: deployment(), taskId })
    expect(result).toMatchObject({ status: 'Completed', resultCID: logs, failed: true, failure })
    expect(result.results).toMatchObject([
      { slot: 0, resultCID: logs, resultDigest: failureDigest(failure), failure },
    ])
    expect(result.settlement).toMatchObject({ resultDigest: failureDigest(failure), failure })
  })

  it('reads an output as no failure', async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '1' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    await claimTask(provider, { deployment: deployment(), taskId })
    const settled = await submitResult(provider, {
      deployment: deployment(),
      taskId,
      result: cids.output,
      receipt: anyCid,
      runtimeSec: 1,
    })
    expect(settled).toMatchObject({ failure: undefined, digest: expect.stringMatching(/^0x[0-9a-f]{64}$/) })
    expect(await getTask(provider, { deployment: deployment(), taskId })).toMatchObject({
      failed: false,
      failure: undefined,
    })
  })

  it('refuses a timeout before the runtime limit has passed since the claim, and takes it after', async () => {
    const sourceId = await publishTestSource({ maxRuntimeSec: 60, failureFeeBps: 10_000 })
    const client = await approvedClient({ grid: '1' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    await claimTask(provider, { deployment: deployment(), taskId })
    const timedOut = {
      deployment: deployment(),
      taskId,
      result: cids.logs,
      failure: { kind: 'timedOut' },
      receipt: anyCid,
      runtimeSec: 60,
    } as const
    const early = await rejection(submitResult(provider, timedOut))
    expect(early).toBeInstanceOf(ContractRevertedError)
    expect(early).toMatchObject({ errorName: 'TaskMarketTimeoutTooEarly' })
    expect((early as ContractRevertedError).args?.slice(0, 2)).toEqual([taskId, 60])
    expect((early as ContractRevertedError).hint).toMatch(
      new RegExp(
        `^a run reported as timed out must have had the whole runtime limit since the claim: task ${taskId}'s limit is 1m and \\d+s had passed: wait until the limit is reached`,
      ),
    )

    await testClient().increaseTime({ seconds: 61 })
    await testClient().mine({ blocks: 1 })
    const settled = await submitResult(provider, timedOut)
    expect(settled).toMatchObject({ failure: { kind: 'timedOut' }, payment: grid('1') })
  })

  it('names a bad failure before sending', async () => {
    const provider = await approvedClient({ grid: '1' })
    const nonce = await provider.getTransactionCount({ address: provider.account.address })
    const error = await rejection(
      submitResult(provider, {
        deployment: deployment(),
        taskId: 1n,
        result: cids.logs,
        failure: { kind: 'outOfMemory', exitCode: 137 },
        receipt: anyCid,
        runtimeSec: 1,
      }),
    )
    expect((error as InvalidParametersError).fields).toEqual([
      {
        path: 'failure.exitCode',
        message: "an 'exited' failure has the workload's exit code (0 to 255), and only it",
      },
    ])
    expect(await provider.getTransactionCount({ address: provider.account.address })).toBe(nonce)
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
