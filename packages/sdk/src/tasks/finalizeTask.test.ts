import { type Hex, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, testClient } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  availableStake,
  claimSeats,
  marketBalance,
  outputCid,
  publishTestSource,
  rejection,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { claimTask } from './claimTask.js'
import { resultDigest } from './commitment.js'
import { commitResult } from './commitResult.js'
import { finalizeTask } from './finalizeTask.js'
import { revealResult } from './revealResult.js'
import { sealResult } from './seal.js'

const grid = (amount: string) => parseUnits(amount, 18)

/** A three-replica task whose providers committed to `outputs` (so its reveal window is open). */
async function committedTask(outputs: string[]) {
  const sourceId = await publishTestSource({ deterministic: true })
  const client = await approvedClient({ grid: '10' })
  const providers = [
    await testProvider([sourceId]),
    await testProvider([sourceId]),
    await testProvider([sourceId]),
  ]
  const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '2', replicas: 3 })
  await claimSeats(taskId, providers, (provider) => claimTask(provider, { deployment: deployment(), taskId }))
  const salts: Hex[] = []
  for (const [index, provider] of providers.entries()) {
    salts.push(
      (await commitResult(provider, { deployment: deployment(), taskId, result: outputs[index]! })).salt,
    )
  }
  /** Reveals the results of the providers at `indexes`. */
  const reveal = async (indexes: number[]) => {
    for (const index of indexes) {
      await revealResult(providers[index]!, {
        deployment: deployment(),
        taskId,
        result: outputs[index]!,
        receipt: anyCid,
        salt: salts[index]!,
        runtimeSec: 1,
      })
    }
  }
  return { client, providers, taskId, reveal }
}

describe('finalizeTask', () => {
  it('settles after the reveal window: a majority is paid, non-revealers slashed; results that differ are disputed, and its lapse without a majority fails', async () => {
    const agreed = await outputCid('agreed')
    const other = await outputCid('other')
    const majority = await committedTask([agreed, agreed, agreed])
    const split = await committedTask([agreed, other, agreed])
    await majority.reveal([0, 1])
    await split.reveal([0, 1])

    const early = (await rejection(
      finalizeTask(majority.client, { deployment: deployment(), taskId: majority.taskId }),
    )) as ContractRevertedError
    expect(early).toBeInstanceOf(ContractRevertedError)
    expect(early.errorName).toBe('TaskMarketRevealStillOpen')
    expect(early.hint).toContain(`the reveal window of task ${majority.taskId} is open until`)

    // The reveal window is 10 minutes.
    await testClient().increaseTime({ seconds: 601 })
    await testClient().mine({ blocks: 1 })

    const completed = await finalizeTask(majority.client, {
      deployment: deployment(),
      taskId: majority.taskId,
    })
    expect(completed).toMatchObject({
      settled: true,
      taskId: majority.taskId,
      client: majority.client.account.address,
      status: 'Completed',
      // What the replicas handed in and the chain keeps: the seal of their output's digest.
      resultDigest: sealResult({ taskId: majority.taskId, digest: resultDigest(agreed) }),
      paid: grid('4'),
      refund: grid('2'),
      audit: undefined,
    })
    if (!completed.settled) throw new Error('expected a settlement')
    expect(completed.payments.map((payment) => payment.slot)).toEqual([0, 1])
    expect(completed.slashes).toEqual([
      {
        slot: 2,
        provider: majority.providers[2]!.account.address,
        amount: grid('1'),
        toClient: grid('0.5'),
        outvoted: false,
      },
    ])
    expect(await marketBalance(majority.client.account.address)).toBe(grid('2.5'))

    // Anyone may finalize: here the provider that did not reveal. Two different digests: a dispute, whose
    // first round takes one auditor after the replicas; the replica that did not reveal is slashed into it.
    const disputed = await finalizeTask(split.providers[2]!, {
      deployment: deployment(),
      taskId: split.taskId,
    })
    expect(disputed).toMatchObject({
      settled: false,
      taskId: split.taskId,
      revealDeadline: undefined,
      nextRound: { round: 1, firstSlot: 3, auditors: 1 },
    })
    expect(disputed.slashes.map((slash) => [slash.slot, slash.outvoted])).toEqual([[2, false]])

    // Nobody joins in time (2 minutes): the dispute lapses, and with no majority the task fails.
    await testClient().increaseTime({ seconds: 121 })
    await testClient().mine({ blocks: 1 })
    const failed = await finalizeTask(split.client, { deployment: deployment(), taskId: split.taskId })
    expect(failed).toMatchObject({
      settled: true,
      status: 'Failed',
      resultDigest: undefined,
      paid: 0n,
      refund: grid('6'),
      payments: [],
      slashes: [],
      audit: { verdict: 'lapsed', resultDigest: undefined },
    })
    expect(await availableStake(split.providers[1]!.account.address)).toBe(grid('200'))

    const twice = (await rejection(
      finalizeTask(majority.client, { deployment: deployment(), taskId: majority.taskId }),
    )) as ContractRevertedError
    expect(twice.errorName).toBe('TaskMarketWrongStatus')
    expect(twice.hint).toBe(
      `task ${majority.taskId} is Completed: it is settled and final; read it with getTask`,
    )

    const closed = (await rejection(split.reveal([2]))) as ContractRevertedError
    expect(closed.errorName).toBe('TaskMarketWrongStatus')
  })
})
