import { parseUnits, slice } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, testClient } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  availableStake,
  marketBalance,
  outputCid,
  publishTestSource,
  rejection,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import type { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from './claimTask.js'
import { resultDigest } from './commitment.js'
import { getAudit } from './getAudit.js'
import { getAuditDraw } from './getAuditDraw.js'
import { getTask } from './getTask.js'
import { releaseResult } from './releaseResult.js'
import { sealResult } from './seal.js'
import { submitResult } from './submitResult.js'

const grid = (amount: string) => parseUnits(amount, 18)

/** An auditable task (one replica of a deterministic source) whose result was just submitted. */
async function heldTask({ auditBps }: { auditBps?: number } = {}) {
  const sourceId = await publishTestSource({ deterministic: true })
  const client = await approvedClient({ grid: '10' })
  const provider = await testProvider([sourceId])
  const { taskId, escrow } = await submitTestTask(client, sourceId, { maxPayment: '2', auditBps })
  await claimTask(provider, { deployment: deployment(), taskId })
  const submitted = await submitResult(provider, {
    deployment: deployment(),
    taskId,
    result: await outputCid('the output'),
    receipt: anyCid,
    runtimeSec: 5,
  })
  return { client, provider, taskId, escrow, submitted }
}

describe('releaseResult', () => {
  it('settles a held result that the draw did not pick', async () => {
    // auditBps 1000 (the minimum): the draw picks 1 in 10 results, so look for one it passes over.
    let held = await heldTask({ auditBps: 1_000 })
    for (;;) {
      expect(held.submitted).toMatchObject({ held: true, payment: 0n, fee: 0n, refund: 0n })
      // The draw needs the hash of the block after the submission: not ready in that block.
      const atSubmission = {
        deployment: deployment(),
        taskId: held.taskId,
        blockNumber: held.submitted.blockNumber,
      }
      expect(await getAuditDraw(held.client, atSubmission)).toMatchObject({ ready: false })
      await testClient().mine({ blocks: 2 })
      const draw = await getAuditDraw(held.client, { deployment: deployment(), taskId: held.taskId })
      expect(draw.ready).toBe(true)
      if (!draw.drawn) break
      held = await heldTask({ auditBps: 1_000 })
    }
    expect(held.escrow).toBe(grid('4'))
    // Held: the market keeps a tag of the result's seal (its first 8 bytes) and the block it came in.
    const task = await getTask(held.client, { deployment: deployment(), taskId: held.taskId })
    expect(task).toMatchObject({ status: 'Held', auditBps: 1_000, audit: { verdict: 'none', round: 0 } })
    expect(task.slots[0]).toMatchObject({
      status: 'Submitted',
      provider: held.provider.account.address,
      claimedAt: undefined,
      resultTag: slice(
        sealResult({ taskId: held.taskId, digest: resultDigest(await outputCid('the output')) }),
        0,
        8,
      ),
      submittedBlock: held.submitted.blockNumber,
    })
    // The collateral stays locked while the result is held: 9 × maxPayment at 10 %.
    expect(await availableStake(held.provider.account.address)).toBe(grid('182'))

    // Anyone may release it.
    const released = await releaseResult(held.provider, { deployment: deployment(), taskId: held.taskId })
    expect(released).toMatchObject({
      taskId: held.taskId,
      drawn: false,
      payment: grid('2'),
      fee: grid('0.1'),
      refund: grid('2'),
    })
    expect(await marketBalance(held.provider.account.address)).toBe(grid('1.9'))
    expect(await marketBalance(held.client.account.address)).toBe(grid('2'))
    expect(await availableStake(held.provider.account.address)).toBe(grid('200'))
    expect(await getAudit(held.client, { deployment: deployment(), taskId: held.taskId })).toMatchObject({
      verdict: 'not-drawn',
    })
  })

  it('opens an audit when the draw picks the result', async () => {
    // auditBps 10000: every result is audited.
    const held = await heldTask({ auditBps: 10_000 })
    await testClient().mine({ blocks: 2 })
    expect(await getAuditDraw(held.client, { deployment: deployment(), taskId: held.taskId })).toEqual({
      ready: true,
      drawn: true,
    })
    const released = await releaseResult(held.client, { deployment: deployment(), taskId: held.taskId })
    expect(released).toMatchObject({ taskId: held.taskId, drawn: true, payment: 0n, fee: 0n, refund: 0n })
    expect(await marketBalance(held.provider.account.address)).toBe(0n)

    const twice = (await rejection(
      releaseResult(held.client, { deployment: deployment(), taskId: held.taskId }),
    )) as ContractRevertedError
    expect(twice.errorName).toBe('TaskMarketWrongStatus')
    expect(twice.hint).toContain('Auditing')
  })

  it("rides on the provider's next claim: claimTask releases held results in the same transaction", async () => {
    // auditBps 10000 and the minimum: one result the draw picks, one it passes over (looked for).
    const drawn = await heldTask({ auditBps: 10_000 })
    let passed = await heldTask({ auditBps: 1_000 })
    for (;;) {
      await testClient().mine({ blocks: 2 })
      if (!(await getAuditDraw(passed.client, { deployment: deployment(), taskId: passed.taskId })).drawn)
        break
      passed = await heldTask({ auditBps: 1_000 })
    }
    const sourceId = await publishTestSource({ deterministic: false })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(await approvedClient({ grid: '1' }), sourceId, {
      maxPayment: '1',
    })
    const claimed = await claimTask(provider, {
      deployment: deployment(),
      taskId,
      release: [drawn.taskId, passed.taskId],
    })
    expect(claimed).toMatchObject({
      taskId,
      slot: 0,
      released: [
        { taskId: drawn.taskId, drawn: true },
        { taskId: passed.taskId, drawn: false },
      ],
    })
    const status = async (id: bigint) =>
      (await getTask(provider, { deployment: deployment(), taskId: id })).status
    expect([await status(taskId), await status(drawn.taskId), await status(passed.taskId)]).toEqual([
      'Claimed',
      'Auditing',
      'Completed',
    ])
    // The provider whose result passed the draw is paid by the claim of another.
    expect(await marketBalance(passed.provider.account.address)).toBe(grid('1.9'))

    // A release that cannot be made undoes the claim with it, and says why.
    const next = await submitTestTask(await approvedClient({ grid: '1' }), sourceId, { maxPayment: '1' })
    const error = (await rejection(
      claimTask(provider, { deployment: deployment(), taskId: next.taskId, release: [passed.taskId] }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('TaskMarketWrongStatus')
    expect(await status(next.taskId)).toBe('Open')
  })

  it('names a bad task id before sending', async () => {
    const client = await approvedClient({ grid: '1' })
    const error = await rejection(releaseResult(client, { deployment: deployment(), taskId: 0 }))
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['taskId'])
  })
})
