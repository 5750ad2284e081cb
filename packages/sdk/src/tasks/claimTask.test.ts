import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  approvedClient,
  publishTestSource,
  rejection,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from './claimTask.js'

describe('claimTask', () => {
  it('takes the lowest free slot and returns its due time and collateral', async () => {
    const sourceId = await publishTestSource({ deterministic: true, maxRuntimeSec: 3_600 })
    const client = await approvedClient({ grid: '10' })
    const [first, second] = [await testProvider([sourceId]), await testProvider([sourceId])]
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '2', replicas: 3 })
    const a = await claimTask(first, { deployment: deployment(), taskId })
    const b = await claimTask(second, { deployment: deployment(), taskId })
    expect([a.slot, b.slot]).toEqual([0, 1])
    expect(b.collateral).toBe(parseUnits('1', 18))
    // Due: the claim's block time + maxRuntimeSec (1 h) + claimGrace (5 min).
    const block = await first.getBlock({ blockNumber: b.blockNumber })
    expect(b.dueAt.getTime()).toBe((Number(block.timestamp) + 3_600 + 300) * 1000)
  })

  it('refuses a second slot of the same task to one provider', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1', replicas: 2 })
    await claimTask(provider, { deployment: deployment(), taskId })
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
    await claimTask(first, { deployment: deployment(), taskId })
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
