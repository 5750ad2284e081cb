import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployerClient, deployment, testClient } from '../../test/chain.js'
import {
  availableStake,
  cids,
  drawnTask,
  type FixtureClient,
  publishTestSource,
  rejection,
  submitFixtureTasks,
  type TestAccountClient,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { TaskFailedError, TaskNotFoundError } from '../errors/task.js'
import { getReceipt } from '../receipts/getReceipt.js'
import { memoryStore } from '../storage/memoryStore.js'
import { resultDigest } from './commitment.js'
import { commitResult } from './commitResult.js'
import { finalizeTask } from './finalizeTask.js'
import { getAudit } from './getAudit.js'
import { getTask } from './getTask.js'
import { getTasks } from './getTasks.js'
import { joinAudit } from './joinAudit.js'
import { revealResult } from './revealResult.js'
import { sealResult } from './seal.js'
import { waitForTask } from './waitForTask.js'

const grid = (amount: string) => parseUnits(amount, 18)

/** The auditors join the round just opened (two blocks after it), then its 2-minute joining closes. */
async function seat(auditors: TestAccountClient[], taskId: bigint) {
  await testClient().mine({ blocks: 2 })
  const slots: number[] = []
  for (const auditor of auditors)
    slots.push((await joinAudit(auditor, { deployment: deployment(), taskId })).slot)
  await testClient().increaseTime({ seconds: 121 })
  await testClient().mine({ blocks: 1 })
  return slots
}

describe('getAudit', () => {
  it("is 'none' for a task that is not auditable, which getTask shows without an audit", async () => {
    const sourceId = await publishTestSource()
    const {
      taskIds: [taskId = 0n],
    } = await submitFixtureTasks(deployerClient() as unknown as FixtureClient, deployment(), {
      sourceId,
      auditBps: 5_000,
    })
    expect(await getAudit(deployerClient(), { deployment: deployment(), taskId })).toEqual({
      verdict: 'none',
      round: 0,
      firstSlot: 0,
      auditors: 0,
      joinDeadline: undefined,
      commitDeadline: undefined,
      seedBlock: undefined,
      slashed: 0n,
    })
    // The source is not deterministic: the task is not audited, whatever it asked for.
    expect(await getTask(deployerClient(), { deployment: deployment(), taskId })).toMatchObject({
      auditBps: 0,
      audit: undefined,
    })
    await expect(
      getAudit(deployerClient(), { deployment: deployment(), taskId: 999_999_999n }),
    ).rejects.toBeInstanceOf(TaskNotFoundError)
  })

  it("follows an audit that reproduces the result: 'pending', then 'upheld' and paid", async () => {
    const { client, provider, auditors, taskId, releasedBlock } = await drawnTask()
    const auditor = auditors[0]!
    const pending = await getAudit(client, { deployment: deployment(), taskId })
    expect(pending).toMatchObject({
      verdict: 'pending',
      round: 1,
      firstSlot: 1,
      auditors: 1,
      seedBlock: releasedBlock,
    })
    expect(pending.commitDeadline!.getTime() - pending.joinDeadline!.getTime()).toBe((60 + 300) * 1000)
    const auditing = await getTask(client, { deployment: deployment(), taskId })
    expect(auditing).toMatchObject({ status: 'Auditing', auditBps: 10_000, audit: pending })

    expect(await seat([auditor], taskId)).toEqual([1])
    const committed = await commitResult(auditor, { deployment: deployment(), taskId, result: cids.output })
    // An auditor commits to the digest it found itself, not to a seal: the market seals it at the reveal.
    expect(committed.digest).toBe(resultDigest(cids.output))
    // The round's only auditor committed: its reveal opens.
    expect(committed.revealDeadline).toBeInstanceOf(Date)
    const revealed = await revealResult(auditor, {
      deployment: deployment(),
      taskId,
      result: cids.output,
      receipt: cids.input,
      salt: committed.salt,
      runtimeSec: 1,
    })
    // The market sealed what the auditor revealed, and it matched the provider's held seal.
    const seal = sealResult({ taskId, digest: resultDigest(cids.output) })
    expect(revealed.digest).toBe(seal)
    expect(revealed.settlement).toMatchObject({
      status: 'Completed',
      resultDigest: seal,
      audit: { verdict: 'upheld', resultDigest: seal },
      // The client pays for the result and for one auditor: the whole escrow.
      paid: grid('4'),
      refund: 0n,
      slashes: [],
    })
    expect(revealed.settlement?.payments.map((payment) => [payment.slot, payment.provider])).toEqual([
      [0, provider.account.address],
      [1, auditor.account.address],
    ])

    const upheld = await getAudit(client, { deployment: deployment(), taskId })
    expect(upheld).toMatchObject({ verdict: 'upheld', round: 1, slashed: 0n })
    const task = await getTask(client, { deployment: deployment(), taskId })
    expect(task).toMatchObject({ status: 'Completed', audit: upheld })
    // getTasks reads the audits of auditable tasks in a second pass.
    expect(await getTasks(client, { deployment: deployment(), taskIds: [taskId] })).toEqual([task])
    expect(task.slots.map((slot) => [slot.status, slot.resultDigest])).toEqual([
      ['Submitted', undefined],
      ['Submitted', seal],
    ])
    expect(await availableStake(provider.account.address)).toBe(grid('200'))
    expect(await availableStake(auditor.account.address)).toBe(grid('200'))
  })

  it("escalates a disputed result and ends 'overturned': the provider is slashed and the client refunded", async () => {
    const { client, provider, auditors, taskId } = await drawnTask({ auditors: 3 })
    const [first, second, third] = auditors as [TestAccountClient, TestAccountClient, TestAccountClient]

    // Round 1: the auditor finds another result, which escalates to a round of two.
    await seat([first], taskId)
    const firstCommit = await commitResult(first, {
      deployment: deployment(),
      taskId,
      result: cids.otherOutput,
    })
    const firstReveal = await revealResult(first, {
      deployment: deployment(),
      taskId,
      result: cids.otherOutput,
      receipt: cids.input,
      salt: firstCommit.salt,
      runtimeSec: 1,
    })
    expect(firstReveal.settlement).toBeUndefined()
    expect(await getAudit(client, { deployment: deployment(), taskId })).toMatchObject({
      verdict: 'pending',
      round: 2,
      firstSlot: 2,
      auditors: 2,
    })

    // Round 2: one auditor commits, the other never does.
    expect(await seat([second, third], taskId)).toEqual([2, 3])
    const secondCommit = await commitResult(second, {
      deployment: deployment(),
      taskId,
      result: cids.otherOutput,
    })
    expect(secondCommit.revealDeadline).toBeUndefined()
    const early = (await rejection(
      finalizeTask(client, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(early).toBeInstanceOf(ContractRevertedError)
    expect(early.errorName).toBe('TaskMarketAuditStillRunning')
    expect(early.hint).toContain('finalize it once that time is over')

    // Past the commitments' deadline (the runtime limit, 60 s, and the claim grace, 5 min).
    await testClient().increaseTime({ seconds: 361 })
    await testClient().mine({ blocks: 1 })
    const advanced = await finalizeTask(client, { deployment: deployment(), taskId })
    expect(advanced).toMatchObject({
      settled: false,
      taskId,
      slashes: [
        // A no-show forfeits what a task without audits locks (collateralBps 50 % of maxPayment 2), not the bond.
        { slot: 3, provider: third.account.address, amount: grid('1'), toClient: 0n, outvoted: false },
      ],
      nextRound: undefined,
    })
    if (advanced.settled) throw new Error('expected the audit to move on')
    expect(advanced.revealDeadline).toBeInstanceOf(Date)

    const decided = await revealResult(second, {
      deployment: deployment(),
      taskId,
      result: cids.otherOutput,
      receipt: cids.input,
      salt: secondCommit.salt,
      runtimeSec: 1,
    })
    const found = sealResult({ taskId, digest: resultDigest(cids.otherOutput) })
    expect(decided.settlement).toMatchObject({
      status: 'Failed',
      resultDigest: found,
      audit: { verdict: 'overturned', resultDigest: found },
      slashes: [
        { slot: 0, provider: provider.account.address, amount: grid('6'), toClient: 0n, outvoted: true },
      ],
    })
    expect(decided.settlement?.payments.map((payment) => payment.slot)).toEqual([1, 2])

    const overturned = await getAudit(client, { deployment: deployment(), taskId })
    expect(overturned).toMatchObject({ verdict: 'overturned', round: 2, slashed: grid('1') })
    const task = await getTask(client, { deployment: deployment(), taskId })
    expect(task.status).toBe('Failed')
    expect(task.slots.map((slot) => slot.status)).toEqual([
      'Forfeited',
      'Submitted',
      'Submitted',
      'Forfeited',
    ])
    expect(await availableStake(provider.account.address)).toBe(grid('194'))

    const failed = await waitForTask(client, { deployment: deployment(), taskId }).catch(
      (error: unknown) => error,
    )
    expect(failed).toBeInstanceOf(TaskFailedError)
    expect(failed).toMatchObject({ audit: 'overturned' })
    expect((failed as TaskFailedError).shortMessage).toContain('its audit found another result')

    // The provider's receipt does not hold, whatever it says: the audit overturned its result.
    const store = memoryStore()
    await store.put(new Uint8Array())
    const [receipt] = await getReceipt(client, { deployment: deployment(), taskId, store, slot: 0 })
    expect(receipt?.settlement.audit).toBe('overturned')
    expect(receipt?.status).toBe('mismatch')
    expect(receipt?.status === 'mismatch' && receipt.mismatches[0]).toEqual({
      field: '(audit)',
      expected: 'a result the audit upheld',
      actual: 'overturned by its audit',
    })
  })
})
