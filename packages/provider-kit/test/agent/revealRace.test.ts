import { claimTask, commitResult, getTask, revealResult } from '@gridforge/sdk'
import { describe, expect, test } from 'vitest'
import { deployment, testClient } from '../../../sdk/test/chain.js'
import {
  anyCid,
  approvedClient,
  claimSeats,
  outputCid,
  publishTestSource,
  submitTestTask,
  testProvider,
} from '../../../sdk/test/fixtures.js'
import { revealGasLimit } from '../../src/agent/gasLimits.js'

/** A two-replica task both providers committed to the same result; returns what each needs to reveal. */
async function committedPair() {
  const sourceId = await publishTestSource({ deterministic: true })
  const client = await approvedClient({ grid: '20' })
  const providers = [await testProvider([sourceId]), await testProvider([sourceId])]
  const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '2', replicas: 2 })
  // The seats are raced for from two blocks after the submission; commitments wait until the race is over.
  await claimSeats(taskId, providers, (provider) => claimTask(provider, { deployment: deployment(), taskId }))
  const result = await outputCid(`agreed ${taskId}`)
  const reveals = []
  for (const provider of providers) {
    const { salt } = await commitResult(provider, { deployment: deployment(), taskId, result })
    reveals.push({ provider, salt })
  }
  return { taskId, result, reveals }
}

/**
 * Sends both reveals while the node holds transactions back, so each is
 * estimated against the state before either (the race on a busy chain), then
 * mines them together in one block.
 */
async function revealInOneBlock(pair: Awaited<ReturnType<typeof committedPair>>, gas: bigint | undefined) {
  const node = testClient()
  await node.setAutomine(false)
  try {
    const sent = pair.reveals.map(({ provider, salt }) =>
      revealResult(provider, {
        deployment: deployment(),
        taskId: pair.taskId,
        result: pair.result,
        receipt: anyCid,
        salt,
        runtimeSec: 3,
        gas,
      }).then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
    )
    // Both in the pool (estimated and signed), then one block for both.
    for (let tries = 0; tries < 100; tries++) {
      const pending = await node.request({
        method: 'eth_getBlockByNumber',
        params: ['pending', false],
      } as never)
      if ((pending as { transactions: unknown[] }).transactions.length >= 2) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await node.mine({ blocks: 1 })
    await node.setAutomine(true)
    return await Promise.all(sent)
  } finally {
    await node.setAutomine(true)
  }
}

describe('reveals racing in one block', () => {
  test('estimated by the node alone, the reveal that lands second settles the task and runs out of gas', async () => {
    const pair = await committedPair()
    const outcomes = await revealInOneBlock(pair, undefined)
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(1)
    const failed = outcomes.find((outcome) => !outcome.ok)
    expect((failed as { error: Error }).error.name).toBe('TransactionRevertedError')
  })

  test('with the agent’s reveal gas limit, both succeed and the task settles Completed', async () => {
    const pair = await committedPair()
    const outcomes = await revealInOneBlock(pair, revealGasLimit(2))
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, true])
    const settled = outcomes.flatMap((outcome) => (outcome.ok ? [outcome.value.settlement] : []))
    expect(settled.filter((settlement) => settlement !== undefined)).toHaveLength(1)
    expect(outcomes.map((outcome) => outcome.ok && outcome.value.blockNumber)).toEqual([
      outcomes[0]?.ok && outcomes[0].value.blockNumber,
      outcomes[0]?.ok && outcomes[0].value.blockNumber,
    ])
    expect(
      (await getTask(testClient() as never, { deployment: deployment(), taskId: pair.taskId })).status,
    ).toBe('Completed')
  })
})
