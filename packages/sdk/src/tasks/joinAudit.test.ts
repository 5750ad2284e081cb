import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, fundedClient, testClient } from '../../test/chain.js'
import { availableStake, cids, drawnTask, rejection } from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { commitResult } from './commitResult.js'
import { getAudit } from './getAudit.js'
import { auditReseededSlot, joinAudit } from './joinAudit.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('joinAudit', () => {
  it('seats an eligible provider with its ticket; the best tickets hold the round', async () => {
    const { provider, auditors, taskId, releasedBlock } = await drawnTask({ auditors: 2 })
    const [first, second] = auditors as [(typeof auditors)[0], (typeof auditors)[0]]
    const audit = await getAudit(first, { deployment: deployment(), taskId })
    expect(audit).toMatchObject({
      verdict: 'pending',
      round: 1,
      firstSlot: 1,
      auditors: 1,
      seedBlock: releasedBlock,
    })
    // Tickets are drawn from the hash of the block after the round opened.
    await testClient().mine({ blocks: 2 })

    const own = (await rejection(
      joinAudit(provider, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(own).toBeInstanceOf(ContractRevertedError)
    expect(own.errorName).toBe('TaskMarketAlreadyClaimant')

    const joined = await joinAudit(first, { deployment: deployment(), taskId })
    expect(joined).toMatchObject({ taskId, slot: 1, replaced: undefined })
    expect(joined.slot).not.toBe(auditReseededSlot)
    expect(joined.score).toBeGreaterThan(0n)
    // The task's collateral: 3 × maxPayment when every result is audited.
    expect(await availableStake(first.account.address)).toBe(grid('194'))

    // One seat: the second auditor's ticket either beats the first's or is refused.
    const contest = await joinAudit(second, { deployment: deployment(), taskId }).catch(
      (error: unknown) => error,
    )
    if (contest instanceof ContractRevertedError) {
      expect(contest.errorName).toBe('TaskMarketAuditTicketTooHigh')
      expect(contest.args).toEqual([taskId, expect.any(BigInt), joined.score])
      expect(contest.hint).toContain(`your audit ticket for task ${taskId}`)
    } else {
      expect(contest).toMatchObject({ slot: 1, replaced: first.account.address })
      expect((contest as typeof joined).score).toBeLessThan(joined.score)
      expect(await availableStake(first.account.address)).toBe(grid('200'))
    }

    // Work starts on a final assignment: no commitment while joining is open.
    const seated = contest instanceof ContractRevertedError ? first : second
    const early = (await rejection(
      commitResult(seated, { deployment: deployment(), taskId, result: cids.output }),
    )) as ContractRevertedError
    expect(early.errorName).toBe('TaskMarketAuditJoinOpen')
    expect(early.hint).toContain(`auditors of task ${taskId} may still join until`)
  })

  it('refuses to join once the round stopped taking auditors', async () => {
    const { auditors, taskId } = await drawnTask()
    // The join window is 2 minutes.
    await testClient().increaseTime({ seconds: 121 })
    await testClient().mine({ blocks: 2 })
    const error = (await rejection(
      joinAudit(auditors[0]!, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('TaskMarketAuditJoinClosed')
    expect(error.hint).toContain(`the audit round of task ${taskId} stopped taking auditors at`)
  })

  it('names a bad task id before sending', async () => {
    const auditor = await fundedClient({ grid: '0' })
    const error = await rejection(joinAudit(auditor, { deployment: deployment(), taskId: -1 }))
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['taskId'])
  })
})
