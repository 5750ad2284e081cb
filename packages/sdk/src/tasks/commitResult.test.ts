import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  claimSeats,
  endSeatRace,
  type FixtureClient,
  mineToSeed,
  outputCid,
  publishTestSource,
  rejection,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from './claimTask.js'
import { computeCommitment, generateSalt, resultDigest } from './commitment.js'
import { commitResult } from './commitResult.js'
import { sealResult } from './seal.js'

async function claimedTask(replicas: number) {
  const sourceId = await publishTestSource({ deterministic: true })
  const client = await approvedClient({ grid: '20' })
  const provider = await testProvider([sourceId])
  const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1', replicas })
  if (replicas === 1) await claimTask(provider, { deployment: deployment(), taskId })
  else await claimSeats(taskId, [provider], () => claimTask(provider, { deployment: deployment(), taskId }))
  return { sourceId, provider, taskId }
}

describe('commitResult', () => {
  it("generates a salt, commits to the output's seal and returns what the reveal needs", async () => {
    const { provider, taskId } = await claimedTask(2)
    const result = await outputCid('commit me')
    const committed = await commitResult(provider, { deployment: deployment(), taskId, result })
    expect(committed.salt).toMatch(/^0x[0-9a-f]{64}$/)
    // A replica commits to the seal of its output's digest, never to the digest.
    expect(committed.digest).toBe(sealResult({ taskId, digest: resultDigest(result) }))
    expect(committed).toMatchObject({
      taskId,
      provider: provider.account.address,
      slot: 0,
      revealDeadline: undefined,
    })
    expect(committed.commitment).toBe(
      computeCommitment({
        taskId,
        provider: provider.account.address,
        digest: committed.digest,
        salt: committed.salt,
      }),
    )
  })

  it('seals the plain `output` of a sealed result, whatever the envelope', async () => {
    const { provider, taskId } = await claimedTask(2)
    const output = await outputCid('the plain output')
    const committed = await commitResult(provider, {
      deployment: deployment(),
      taskId,
      result: anyCid,
      output,
    })
    expect(committed.digest).toBe(sealResult({ taskId, digest: resultDigest(output) }))
  })

  it('uses the salt given, and refuses a second commitment', async () => {
    const { provider, taskId } = await claimedTask(2)
    const salt = generateSalt()
    const committed = await commitResult(provider, { deployment: deployment(), taskId, result: anyCid, salt })
    expect(committed.salt).toBe(salt)
    const error = await rejection(
      commitResult(provider, { deployment: deployment(), taskId, result: anyCid }),
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error).toMatchObject({
      errorName: 'TaskMarketAlreadyCommitted',
      hint: `${provider.account.address} already committed to task ${taskId}: reveal once every slot has committed`,
    })
  })

  it('refuses to commit before a seat won in the race is final', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '20' })
    const provider = await testProvider([sourceId])
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1', replicas: 2 })
    await mineToSeed(provider as unknown as FixtureClient, deployment(), taskId)
    const { finalAt } = await claimTask(provider, { deployment: deployment(), taskId })
    const early = (await rejection(
      commitResult(provider, { deployment: deployment(), taskId, result: anyCid }),
    )) as ContractRevertedError
    expect(early).toMatchObject({
      errorName: 'TaskMarketSeatNotFinal',
      args: [taskId, finalAt.getTime() / 1000],
    })
    expect(early.hint).toBe(
      `your seat of task ${taskId} was won in the race for its seats and is final at ${finalAt.toISOString()}: until then a better ticket may take it, so commit (and start the work) from then on`,
    )
    await endSeatRace(provider as unknown as FixtureClient, deployment(), taskId)
    expect(await commitResult(provider, { deployment: deployment(), taskId, result: anyCid })).toMatchObject({
      slot: 0,
    })
  })

  it('points a single-replica task to submitResult', async () => {
    const { provider, taskId } = await claimedTask(1)
    const error = (await rejection(
      commitResult(provider, { deployment: deployment(), taskId, result: anyCid }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('TaskMarketWrongMode')
    expect(error.hint).toBe(`task ${taskId} has one replica: use submitResult`)
  })

  it('refuses a result CID that is not sha2-256, naming the field', async () => {
    const provider = await approvedClient({ grid: '1' })
    const blake3 = 'bafkr4iaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    const error = await rejection(
      commitResult(provider, { deployment: deployment(), taskId: 1n, result: blake3 }),
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields).toEqual([
      {
        path: 'result',
        message:
          "its multihash is 0x1e, not sha2-256 (0x12): an output's CID is sha2-256 (a failed run's logs, with `failure`, may be any CID)",
      },
    ])
  })
})
