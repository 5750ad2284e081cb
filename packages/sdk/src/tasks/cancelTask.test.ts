import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  approvedClient,
  claimSeats,
  marketBalance,
  publishTestSource,
  rejection,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { cancelTask } from './cancelTask.js'
import { claimTask } from './claimTask.js'

const grid = (amount: string) => parseUnits(amount, 18)

describe('cancelTask', () => {
  it('refunds the whole escrow of an unclaimed task to the market balance', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1.5', replicas: 3 })
    const cancelled = await cancelTask(client, { deployment: deployment(), taskId })
    expect(cancelled).toMatchObject({
      taskId,
      client: client.account.address,
      status: 'Cancelled',
      paid: 0n,
      refund: grid('4.5'),
      payments: [],
      slashes: [],
    })
    expect(cancelled.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(await marketBalance(client.account.address)).toBe(grid('4.5'))

    const twice = (await rejection(
      cancelTask(client, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(twice.errorName).toBe('TaskMarketWrongStatus')
    expect(twice.hint).toContain('is Cancelled')
  })

  it('refuses another account and a claimed task', async () => {
    const sourceId = await publishTestSource()
    const client = await approvedClient({ grid: '10' })
    const stranger = await approvedClient({ grid: '1' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1' })
    const notClient = await rejection(cancelTask(stranger, { deployment: deployment(), taskId }))
    expect(notClient).toBeInstanceOf(ContractRevertedError)
    expect(notClient).toMatchObject({
      errorName: 'TaskMarketNotClient',
      hint: `${stranger.account.address} did not submit task ${taskId}: only its client can cancel it`,
    })

    await claimTask(provider, { deployment: deployment(), taskId })
    const claimed = (await rejection(
      cancelTask(client, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    // Fully claimed: the status check comes first.
    expect(claimed.errorName).toBe('TaskMarketWrongStatus')
  })

  it('refuses to cancel a task with a live claim on one of its slots', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1', replicas: 2 })
    await claimSeats(taskId, [provider], () => claimTask(provider, { deployment: deployment(), taskId }))
    const error = (await rejection(
      cancelTask(client, { deployment: deployment(), taskId }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('TaskMarketHasClaims')
    expect(error.hint).toBe(
      `task ${taskId} has been claimed, so it can no longer be cancelled: wait for the result, or expire it after its deadline`,
    )
  })
})
