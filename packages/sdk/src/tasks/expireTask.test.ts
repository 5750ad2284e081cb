import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, testClient } from '../../test/chain.js'
import {
  approvedClient,
  availableStake,
  marketBalance,
  publishTestSource,
  rejection,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { claimTask } from './claimTask.js'
import { expireTask } from './expireTask.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('expireTask', () => {
  it('refunds a task past its deadline and slashes the claimant that never delivered', async () => {
    // A 1-minute source: with the 5-minute claim grace, a claim needs 6 minutes before the deadline.
    const sourceId = await publishTestSource({ maxRuntimeSec: 60 })
    const client = await approvedClient({ grid: '10' })
    const [noShow, late] = [await testProvider([sourceId]), await testProvider([sourceId])]
    const submit = (deadline: '10m' | '5m' = '10m') =>
      submitTestTask(client, sourceId, { maxPayment: '1', deadline })
    const claimed = await submit()
    const unclaimed = await submit()
    const claim = await claimTask(noShow, { deployment: deployment(), taskId: claimed.taskId })
    // A claim is never due after the task's deadline.
    expect(claim.dueAt.getTime()).toBeLessThanOrEqual(claimed.deadline * 1000)

    // A task whose deadline leaves less than the runtime limit and the grace cannot be claimed at all.
    const short = await submit('5m')
    const tooShort = (await rejection(
      claimTask(late, { deployment: deployment(), taskId: short.taskId }),
    )) as ContractRevertedError
    expect(tooShort.errorName).toBe('TaskMarketClaimWindowTooShort')
    expect(tooShort.hint).toContain(`a claim of task ${short.taskId} now would be due at`)

    const early = (await rejection(
      expireTask(client, { deployment: deployment(), taskId: claimed.taskId }),
    )) as ContractRevertedError
    expect(early).toBeInstanceOf(ContractRevertedError)
    expect(early.errorName).toBe('TaskMarketDeadlineNotPassed')
    expect(early.hint).toBe(
      `task ${claimed.taskId} can be expired after ${new Date(claimed.deadline * 1000).toISOString()}`,
    )

    await testClient().increaseTime({ seconds: 601 })
    await testClient().mine({ blocks: 1 })

    const tooLate = (await rejection(
      claimTask(late, { deployment: deployment(), taskId: unclaimed.taskId }),
    )) as ContractRevertedError
    expect(tooLate.errorName).toBe('TaskMarketTaskDeadlinePassed')
    expect(tooLate.hint).toContain('it can no longer be claimed; anyone may expire it')

    const expired = await expireTask(late, { deployment: deployment(), taskId: claimed.taskId })
    expect(expired).toMatchObject({
      taskId: claimed.taskId,
      client: client.account.address,
      status: 'Expired',
      resultDigest: undefined,
      paid: 0n,
      refund: grid('1'),
      payments: [],
      slashes: [
        {
          slot: 0,
          provider: noShow.account.address,
          amount: grid('0.5'),
          toClient: grid('0.25'),
          outvoted: false,
        },
      ],
    })
    const refunded = await expireTask(late, { deployment: deployment(), taskId: unclaimed.taskId })
    expect(refunded).toMatchObject({ status: 'Expired', refund: grid('1'), slashes: [] })
    expect(await marketBalance(client.account.address)).toBe(grid('2.25'))
    expect(await availableStake(noShow.account.address)).toBe(grid('199.5'))

    const twice = (await rejection(
      expireTask(late, { deployment: deployment(), taskId: claimed.taskId }),
    )) as ContractRevertedError
    expect(twice.errorName).toBe('TaskMarketWrongStatus')
    expect(twice.hint).toBe(
      `task ${claimed.taskId} is Expired: it expired and was refunded: it is final; read it with getTask`,
    )
  })
})
