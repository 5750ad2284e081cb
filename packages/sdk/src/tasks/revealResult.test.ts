import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  availableStake,
  marketBalance,
  outputCid,
  publishTestSource,
  rejection,
  reputation,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import { ContractRevertedError } from '../errors/contract.js'
import { InvalidParametersError } from '../errors/validation.js'
import { claimTask } from './claimTask.js'
import { resultDigest } from './commitment.js'
import { commitResult } from './commitResult.js'
import { revealResult } from './revealResult.js'

const grid = (amount: string) => parseUnits(amount, 18)

async function consensusTask(replicas: number) {
  const sourceId = await publishTestSource({ deterministic: true })
  const client = await approvedClient({ grid: '20' })
  const providers = []
  for (let index = 0; index < replicas; index++) providers.push(await testProvider([sourceId]))
  const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '2', replicas })
  for (const provider of providers) await claimTask(provider, { deployment: deployment(), taskId })
  return { client, providers, taskId }
}

describe('revealResult', () => {
  it('settles a three-replica task on the last reveal: the majority is paid, the outvoted slashed', async () => {
    const { client, providers, taskId } = await consensusTask(3)
    const [honest1, honest2, outvoted] = providers as [
      (typeof providers)[0],
      (typeof providers)[0],
      (typeof providers)[0],
    ]
    const agreed = await outputCid('the right output')
    const wrong = await outputCid('a wrong output')
    const commits = []
    for (const [provider, result] of [
      [honest1, agreed],
      [honest2, agreed],
      [outvoted, wrong],
    ] as const) {
      const committed = await commitResult(provider, { deployment: deployment(), taskId, result })
      commits.push({ ...committed, client: provider, result })
    }
    expect(commits.map((commit) => commit.revealDeadline === undefined)).toEqual([true, true, false])

    const reveals = []
    for (const { client: provider, result, salt } of commits) {
      reveals.push(
        await revealResult(provider, {
          deployment: deployment(),
          taskId,
          result,
          receipt: anyCid,
          salt,
          runtimeSec: 5,
        }),
      )
    }
    expect(reveals[0]).toMatchObject({
      taskId,
      slot: 0,
      digest: resultDigest(agreed),
      result: agreed,
      settlement: undefined,
    })
    expect(reveals[1]!.settlement).toBeUndefined()
    expect(reveals[2]!.settlement).toEqual({
      taskId,
      client: client.account.address,
      status: 'Completed',
      resultDigest: resultDigest(agreed),
      paid: grid('4'),
      refund: grid('2'),
      payments: [
        { slot: 0, provider: honest1.account.address, payment: grid('2'), fee: grid('0.1') },
        { slot: 1, provider: honest2.account.address, payment: grid('2'), fee: grid('0.1') },
      ],
      slashes: [
        {
          slot: 2,
          provider: outvoted.account.address,
          amount: grid('1'),
          toClient: grid('0.5'),
          outvoted: true,
        },
      ],
    })
    expect(await marketBalance(honest1.account.address)).toBe(grid('1.9'))
    expect(await marketBalance(outvoted.account.address)).toBe(0n)
    expect(await availableStake(honest2.account.address)).toBe(grid('200'))
    expect(await availableStake(outvoted.account.address)).toBe(grid('199'))
    // The client gets the third replica's escrow back plus its share of the slash.
    expect(await marketBalance(client.account.address)).toBe(grid('2.5'))
    expect((await reputation(outvoted.account.address)).outvoted).toBe(1)
  })

  it('refuses a reveal with another salt than the one committed', async () => {
    const { providers, taskId } = await consensusTask(2)
    const result = await outputCid('output')
    const [{ salt }] = [await commitResult(providers[0]!, { deployment: deployment(), taskId, result })]
    await commitResult(providers[1]!, { deployment: deployment(), taskId, result })
    const wrongSalt = `0x${(BigInt(salt) ^ 1n).toString(16).padStart(64, '0')}` as const
    const error = await rejection(
      revealResult(providers[0]!, {
        deployment: deployment(),
        taskId,
        result,
        receipt: anyCid,
        salt: wrongSalt,
        runtimeSec: 1,
      }),
    )
    expect(error).toBeInstanceOf(ContractRevertedError)
    expect(error).toMatchObject({
      errorName: 'TaskMarketCommitmentMismatch',
      args: [taskId, providers[0]!.account.address],
    })
    expect((error as ContractRevertedError).hint).toContain('with the salt that commitResult returned')
    // The right salt still works.
    const revealed = await revealResult(providers[0]!, {
      deployment: deployment(),
      taskId,
      result,
      receipt: anyCid,
      salt,
      runtimeSec: 1,
    })
    expect(revealed.slot).toBe(0)
  })

  it('refuses to reveal before every slot has committed', async () => {
    const { providers, taskId } = await consensusTask(2)
    const result = await outputCid('early')
    const { salt } = await commitResult(providers[0]!, { deployment: deployment(), taskId, result })
    const error = (await rejection(
      revealResult(providers[0]!, {
        deployment: deployment(),
        taskId,
        result,
        receipt: anyCid,
        salt,
        runtimeSec: 1,
      }),
    )) as ContractRevertedError
    expect(error.errorName).toBe('TaskMarketWrongStatus')
    expect(error.hint).toBe(
      `task ${taskId} is Claimed: every slot is claimed and the results are not in yet; read it with getTask`,
    )
  })

  it('names a malformed salt and a non-sha256 result before sending', async () => {
    const provider = await approvedClient({ grid: '1' })
    const error = await rejection(
      revealResult(provider, {
        deployment: deployment(),
        taskId: 1n,
        result: 'bafkr4iaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        receipt: anyCid,
        salt: '0x1234',
        runtimeSec: 1,
      }),
    )
    expect(error).toBeInstanceOf(InvalidParametersError)
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['result', 'salt'])
  })
})
