import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, testClient } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  availableStake,
  marketBalance,
  publishTestSource,
  rejection,
  reputation,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from './claimTask.js'
import { reopenSlot } from './reopenSlot.js'
import { submitResult } from './submitResult.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('reopenSlot', () => {
  it('frees the slot of a no-show, slashes it, and lets another provider deliver', async () => {
    // A 1-second runtime: the claim is due 1 s + claimGrace (300 s) after it is made.
    const sourceId = await publishTestSource({ maxRuntimeSec: 1 })
    const client = await approvedClient({ grid: '10' })
    const [noShow, backup] = [await testProvider([sourceId]), await testProvider([sourceId])]
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    const claim = await claimTask(noShow, { deployment: deployment(), taskId })

    const early = (await rejection(
      reopenSlot(client, { deployment: deployment(), taskId, slot: 0 }),
    )) as ContractRevertedError
    expect(early).toBeInstanceOf(ContractRevertedError)
    expect(early.errorName).toBe('TaskMarketClaimNotOverdue')
    expect(early.hint).toBe(
      `the claim on slot 0 of task ${taskId} is due at ${claim.dueAt.toISOString()}: it can be reopened only after that`,
    )

    await testClient().increaseTime({ seconds: 302 })
    await testClient().mine({ blocks: 1 })
    const late = (await rejection(
      submitResult(noShow, {
        deployment: deployment(),
        taskId,
        result: anyCid,
        receipt: anyCid,
        runtimeSec: 1,
      }),
    )) as ContractRevertedError
    expect(late.errorName).toBe('TaskMarketClaimOverdue')

    const reopened = await reopenSlot(client, { deployment: deployment(), taskId, slot: 0 })
    expect(reopened).toMatchObject({
      taskId,
      slot: 0,
      provider: noShow.account.address,
      slashed: grid('0.5'),
      toClient: grid('0.25'),
    })
    expect(await availableStake(noShow.account.address)).toBe(grid('199.5'))
    expect(await marketBalance(client.account.address)).toBe(grid('0.25'))
    expect((await reputation(noShow.account.address)).failed).toBe(1)

    const again = (await rejection(
      reopenSlot(client, { deployment: deployment(), taskId, slot: 0 }),
    )) as ContractRevertedError
    expect(again.errorName).toBe('TaskMarketSlotNotClaimed')
    expect(again.hint).toBe(
      `slot 0 of task ${taskId} holds no pending claim (free, committed or delivered): there is nothing to reopen`,
    )

    await claimTask(backup, { deployment: deployment(), taskId })
    const settled = await submitResult(backup, {
      deployment: deployment(),
      taskId,
      result: anyCid,
      receipt: anyCid,
      runtimeSec: 1,
    })
    expect(settled.payment).toBe(grid('1'))
  })

  it('refuses a slot index beyond the largest task', async () => {
    const client = await approvedClient({ grid: '1' })
    const error = await rejection(reopenSlot(client, { deployment: deployment(), taskId: 1n, slot: 7 }))
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['slot'])
  })
})
