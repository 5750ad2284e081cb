import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  approvedClient,
  availableStake,
  claimSeats,
  publishTestSource,
  raceOrder,
  rejection,
  submitTestTask,
  type TestAccountClient,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from './claimTask.js'
import { getAudit } from './getAudit.js'
import { getTask } from './getTask.js'

describe('claimTask', () => {
  it('takes the lowest free slot and returns its due time and collateral', async () => {
    const sourceId = await publishTestSource({ deterministic: true, maxRuntimeSec: 3_600 })
    const client = await approvedClient({ grid: '10' })
    const [first, second] = [await testProvider([sourceId]), await testProvider([sourceId])]
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '2', replicas: 3 })
    const [a, b] = await claimSeats(taskId, [first, second], (provider) =>
      claimTask(provider, { deployment: deployment(), taskId }),
    )
    expect([a?.slot, b?.slot]).toEqual([0, 1])
    expect(b?.collateral).toBe(parseUnits('1', 18))
    // The seats of three replicas are raced for: a seat won starts when the race ends (the submission + the
    // market's 2-minute auditJoinWindow), after the claim.
    const { joinDeadline } = await getAudit(client, { deployment: deployment(), taskId })
    const block = await first.getBlock({ blockNumber: b?.blockNumber })
    expect(b).toMatchObject({
      raced: true,
      finalAt: new Date(((joinDeadline?.getTime() ?? 0) / 1000 + 1) * 1000),
    })
    expect(b?.finalAt.getTime()).toBeGreaterThan(Number(block.timestamp) * 1000)
    // Due: the seat's start + maxRuntimeSec (1 h) + claimGrace (5 min).
    expect(b?.dueAt.getTime()).toBe((b?.finalAt.getTime() ?? 0) + (3_600 + 300) * 1000)
  })

  it('waits for the seed of the race, then seats the best tickets: a better one replaces the worst, a worse one is refused', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const providers = await Promise.all([0, 1, 2, 3].map(() => testProvider([sourceId])))
    const { taskId, blockNumber } = await submitTestTask(client, sourceId, { maxPayment: '1', replicas: 2 })
    // Tickets are drawn from the hash of the block after the submission: not before it is mined.
    const early = (await rejection(
      claimTask(providers[0]!, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(early).toMatchObject({ errorName: 'TaskMarketDrawNotReady', args: [taskId, blockNumber + 2n] })
    expect(early.hint).toBe(
      `the race for the seats of task ${taskId} draws its tickets from the hash of a block not mined yet: claim again from block ${blockNumber + 2n}`,
    )

    // Equal stakes: the order of the tickets is known once the seed block is mined.
    const [best, second, third, worst] = (await raceOrder(taskId, providers)) as [
      TestAccountClient,
      TestAccountClient,
      TestAccountClient,
      TestAccountClient,
    ]
    const seated = [
      await claimTask(second, { deployment: deployment(), taskId }),
      await claimTask(third, { deployment: deployment(), taskId }),
    ]
    expect(seated.map(({ slot, raced, replaced }) => ({ slot, raced, replaced }))).toEqual([
      { slot: 0, raced: true, replaced: undefined },
      { slot: 1, raced: true, replaced: undefined },
    ])
    const refused = (await rejection(
      claimTask(worst, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(refused.errorName).toBe('TaskMarketClaimTicketTooHigh')
    expect(refused.hint).toContain(`every seat of task ${taskId} is held by a better ticket than yours`)

    const took = await claimTask(best, { deployment: deployment(), taskId })
    expect(took).toMatchObject({ slot: 1, raced: true, replaced: third.account.address })
    expect(await availableStake(third.account.address)).toBe(parseUnits('200', 18))
    const { slots } = await getTask(client, { deployment: deployment(), taskId })
    expect(slots.map((slot) => slot.provider)).toEqual([second.account.address, best.account.address])
  })

  it('refuses a second slot of the same task to one provider', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1', replicas: 2 })
    await claimSeats(taskId, [provider], () => claimTask(provider, { deployment: deployment(), taskId }))
    const error = await rejection(claimTask(provider, { deployment: deployment(), taskId }))
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error).toMatchObject({
      errorName: 'TaskMarketAlreadyClaimant',
      args: [taskId, provider.account.address],
      hint: `${provider.account.address} already holds a slot of task ${taskId}: replicas must run on different providers`,
    })
  })

  it('refuses a task whose slots are all taken, naming its status', async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '10' })
    const [first, second] = [await testProvider([sourceId]), await testProvider([sourceId])]
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    const claimed = await claimTask(first, { deployment: deployment(), taskId })
    const block = await first.getBlock({ blockNumber: claimed.blockNumber })
    expect(claimed).toMatchObject({ raced: false, finalAt: new Date(Number(block.timestamp) * 1000) })
    const error = (await rejection(
      claimTask(second, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('TaskMarketWrongStatus')
    expect(error.args).toEqual([taskId, 2])

    expect(error.hint).toBe(
      `task ${taskId} is Claimed: every slot is claimed and the results are not in yet; read it with getTask`,
    )
  })

  it("turns the registry's eligibility checks into typed errors", async () => {
    const sourceId = await publishTestSource()
    const other = await publishTestSource()
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([other])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    const error = (await rejection(
      claimTask(provider, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error.errorName).toBe('ProviderRegistryNotSubscribed')
    expect(error.hint).toBe(`subscribe to source ${sourceId} first`)

    const unknown = (await rejection(
      claimTask(provider, { deployment: deployment(), taskId: 2n ** 200n }),
    )) as ContractRevertedError
    expect(unknown.errorName).toBe('TaskMarketUnknownTask')
    expect(unknown.hint).toContain('does not exist')
  })

  it('refuses a malformed task id before sending', async () => {
    const provider = await approvedClient({ grid: '1' })
    const error = await rejection(claimTask(provider, { deployment: deployment(), taskId: -3 }))
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields).toEqual([
      { path: 'taskId', message: 'expected a task id: a whole number from 1' },
    ])
  })
})
