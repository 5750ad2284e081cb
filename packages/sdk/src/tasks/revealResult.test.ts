import { parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment, testClient } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  availableStake,
  cids,
  claimSeats,
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
import { type Failure, failureDigest, validationDigest } from './failures.js'
import { getTask } from './getTask.js'
import { joinAudit } from './joinAudit.js'
import { releaseResult } from './releaseResult.js'
import { revealResult } from './revealResult.js'
import { sealResult } from './seal.js'
import { submitResult } from './submitResult.js'

const grid = (amount: string) => parseUnits(amount, 18)

async function consensusTask(replicas: number, { failureFeeBps = 0 } = {}) {
  const sourceId = await publishTestSource({ deterministic: true, failureFeeBps })
  const client = await approvedClient({ grid: '20' })
  const providers = []
  for (let index = 0; index < replicas; index++) providers.push(await testProvider([sourceId]))
  const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '2', replicas })
  await claimSeats(taskId, providers, (provider) => claimTask(provider, { deployment: deployment(), taskId }))
  return { client, sourceId, providers, taskId }
}

describe('revealResult', () => {
  it('disputes a three-replica task whose results differ on the last reveal; its auditor upholds the majority, which is paid, the outvoted slashed', async () => {
    const { client, sourceId, providers, taskId } = await consensusTask(3)
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
    // Replicas reveal the seal of their output's digest; the digest itself never goes on chain.
    const seal = sealResult({ taskId, digest: resultDigest(agreed) })
    expect(reveals[0]).toMatchObject({
      taskId,
      slot: 0,
      digest: seal,
      result: agreed,
      settlement: undefined,
      nextRound: undefined,
    })
    expect(reveals[1]!.settlement).toBeUndefined()
    // The results differ: no settlement yet, a dispute whose first round seats one auditor after the replicas.
    expect(reveals[2]!.settlement).toBeUndefined()
    expect(reveals[2]!.nextRound).toMatchObject({ round: 1, firstSlot: 3, auditors: 1 })
    expect(await getTask(client, { deployment: deployment(), taskId })).toMatchObject({
      status: 'Auditing',
      audit: { verdict: 'pending', round: 1, firstSlot: 3, auditors: 1 },
    })

    // An auditor joins (two blocks after the round opened), re-runs it once joining closed and finds the majority's result.
    const auditor = await testProvider([sourceId])
    await testClient().mine({ blocks: 2 })
    expect(await joinAudit(auditor, { deployment: deployment(), taskId })).toMatchObject({ slot: 3 })
    await testClient().increaseTime({ seconds: 121 })
    await testClient().mine({ blocks: 1 })
    const audited = await commitResult(auditor, { deployment: deployment(), taskId, result: agreed })
    // The task is Auditing: the auditor commits to the digest it found, which the market seals at the reveal.
    expect(audited.digest).toBe(resultDigest(agreed))
    const verdict = await revealResult(auditor, {
      deployment: deployment(),
      taskId,
      result: agreed,
      receipt: anyCid,
      salt: audited.salt,
      runtimeSec: 5,
    })
    expect(verdict.settlement).toEqual({
      taskId,
      client: client.account.address,
      status: 'Completed',
      resultDigest: seal,
      failure: undefined,
      // The majority and the auditor: the auditor's pay comes from the outvoted's collateral first (1 GRID),
      // then from the outvoted replica's unpaid escrow.
      paid: grid('6'),
      refund: grid('1'),
      payments: [
        { slot: 0, provider: honest1.account.address, payment: grid('2'), fee: grid('0.1') },
        { slot: 1, provider: honest2.account.address, payment: grid('2'), fee: grid('0.1') },
        { slot: 3, provider: auditor.account.address, payment: grid('2'), fee: grid('0.1') },
      ],
      slashes: [
        {
          slot: 2,
          provider: outvoted.account.address,
          amount: grid('1'),
          toClient: 0n,
          outvoted: true,
        },
      ],
      audit: { verdict: 'upheld', resultDigest: seal },
    })
    expect(verdict.digest).toBe(seal)
    expect(await marketBalance(honest1.account.address)).toBe(grid('1.9'))
    expect(await marketBalance(outvoted.account.address)).toBe(0n)
    expect(await availableStake(honest2.account.address)).toBe(grid('200'))
    expect(await availableStake(outvoted.account.address)).toBe(grid('199'))
    // The client gets back what the outvoted replica's escrow did not pay the auditor.
    expect(await marketBalance(client.account.address)).toBe(grid('1'))
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
    // Whether `result` must be a sha2-256 CID depends on `failure` and `validation`: it is checked after the fields.
    expect((error as InvalidParametersError).fields.map((field) => field.path)).toEqual(['salt', 'result'])
  })

  it('settles replicas that agree on a failure: each paid the failure fee', async () => {
    const { client, providers, taskId } = await consensusTask(2, { failureFeeBps: 5_000 })
    const oom: Failure = { kind: 'outOfMemory' }
    const sent = [
      // Each replica's own logs: any CID, and they need not agree.
      [providers[0]!, { result: cids.logs, failure: oom }],
      [providers[1]!, { result: anyCid, failure: oom }],
    ] as const
    const commits = []
    for (const [provider, reported] of sent) {
      const committed = await commitResult(provider, { deployment: deployment(), taskId, ...reported })
      expect(committed).toMatchObject({ digest: failureDigest(oom), failure: oom })
      commits.push({ provider, reported, salt: committed.salt })
    }
    const reveals = []
    for (const { provider, reported, salt } of commits) {
      reveals.push(
        await revealResult(provider, {
          deployment: deployment(),
          taskId,
          ...reported,
          receipt: anyCid,
          salt,
          runtimeSec: 5,
        }),
      )
    }
    expect(reveals.map((reveal) => reveal.failure)).toEqual([oom, oom])
    expect(reveals[1]!.settlement).toMatchObject({
      status: 'Completed',
      resultDigest: failureDigest(oom),
      failure: oom,
      // Half of the 2 GRID price each: the failure fee.
      payments: [
        { slot: 0, payment: grid('1') },
        { slot: 1, payment: grid('1') },
      ],
      slashes: [],
      // The other half of each replica's escrow.
      refund: grid('2'),
    })
    expect(await getTask(client, { deployment: deployment(), taskId })).toMatchObject({
      status: 'Completed',
      failed: true,
      failure: oom,
    })
    expect(await reputation(providers[0]!.account.address)).toMatchObject({ completed: 0, failedRuns: 1 })
  })

  it('names a result that is both a failure and a validation before sending', async () => {
    const provider = await approvedClient({ grid: '1' })
    const nonce = await provider.getTransactionCount({ address: provider.account.address })
    const reported = { result: cids.logs, failure: { kind: 'timedOut' }, validation: 'passed' } as const
    for (const sending of [
      commitResult(provider, { deployment: deployment(), taskId: 1n, ...reported }),
      revealResult(provider, {
        deployment: deployment(),
        taskId: 1n,
        ...reported,
        receipt: anyCid,
        salt: `0x${'11'.repeat(32)}`,
        runtimeSec: 1,
      }),
    ]) {
      const error = await rejection(sending)
      expect(error).toBeInstanceOf(InvalidParametersError)
      expect((error as InvalidParametersError).fields).toEqual([
        {
          path: 'validation',
          message: 'pass `failure` (a failed run) or `validation` (an audit of a validated source), not both',
        },
      ])
    }
    expect(await provider.getTransactionCount({ address: provider.account.address })).toBe(nonce)
  })
})

/**
 * A single result of `sourceId` audited with probability 1 (maximum payment 2 GRID): claimed and handed in
 * by a provider, released into its audit, and one auditor seated in the first round, whose joining closed.
 */
async function auditedResult(sourceId: number, reported: { result: string; failure?: Failure }) {
  const client = await approvedClient({ grid: '10' })
  const provider = await testProvider([sourceId])
  const auditor = await testProvider([sourceId])
  const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '2', auditBps: 10_000 })
  await claimTask(provider, { deployment: deployment(), taskId })
  const submitted = await submitResult(provider, {
    deployment: deployment(),
    taskId,
    ...reported,
    receipt: anyCid,
    runtimeSec: 1,
  })
  const held = await getTask(client, { deployment: deployment(), taskId })
  // The draw reads the hash of the block after the submission.
  await testClient().mine({ blocks: 2 })
  expect(await releaseResult(client, { deployment: deployment(), taskId })).toMatchObject({ drawn: true })
  // Auditors join from two blocks after the round opened; its 2-minute joining then closes.
  await testClient().mine({ blocks: 2 })
  await joinAudit(auditor, { deployment: deployment(), taskId })
  await testClient().increaseTime({ seconds: 121 })
  await testClient().mine({ blocks: 1 })
  return { client, provider, auditor, taskId, submitted, held }
}

describe('revealResult in audits of failures and validated sources', () => {
  it('upholds a held failure that its auditor finds again; the held task shows the failure from its tag', async () => {
    const sourceId = await publishTestSource({ deterministic: true, maxRuntimeSec: 60, failureFeeBps: 5_000 })
    const failure: Failure = { kind: 'exited', exitCode: 3 }
    const { client, auditor, taskId, submitted, held } = await auditedResult(sourceId, {
      result: cids.logs,
      failure,
    })
    expect(submitted).toMatchObject({ held: true, failure, payment: 0n })
    expect(held).toMatchObject({ status: 'Held', failed: true, failure })
    // A failure is its own seal: the tag is the failure digest's first 8 bytes.
    expect(held.slots[0]?.resultTag).toBe(failureDigest(failure).slice(0, 18))

    const committed = await commitResult(auditor, {
      deployment: deployment(),
      taskId,
      result: anyCid,
      failure,
    })
    const revealed = await revealResult(auditor, {
      deployment: deployment(),
      taskId,
      result: anyCid,
      failure,
      receipt: anyCid,
      salt: committed.salt,
      runtimeSec: 1,
    })
    expect(revealed.settlement).toMatchObject({
      status: 'Completed',
      failure,
      audit: { verdict: 'upheld', resultDigest: failureDigest(failure) },
      // Both were paid for a failed run: half of the 2 GRID price.
      payments: [
        { slot: 0, payment: grid('1') },
        { slot: 1, payment: grid('1') },
      ],
      slashes: [],
    })
    expect(await getTask(client, { deployment: deployment(), taskId })).toMatchObject({
      status: 'Completed',
      failed: true,
      failure,
      audit: { verdict: 'upheld' },
    })
  })

  it("upholds a validated source's result when its auditor reveals the validator's pass", async () => {
    const validator = await publishTestSource({ deterministic: true, maxRuntimeSec: 60 })
    // Not deterministic: its single results are auditable only through the validator.
    const sourceId = await publishTestSource({ maxRuntimeSec: 60, validator })
    const { client, provider, auditor, taskId, held } = await auditedResult(sourceId, { result: cids.output })
    expect(held).toMatchObject({ status: 'Held', auditBps: 10_000, failed: false, failure: undefined })
    // What the auditors must find is the validator's pass, not the output: the market holds its seal's tag.
    const passed = sealResult({ taskId, digest: validationDigest(true) })
    expect(held.slots[0]?.resultTag).toBe(passed.slice(0, 18))

    const committed = await commitResult(auditor, {
      deployment: deployment(),
      taskId,
      result: cids.logs,
      validation: 'passed',
    })
    expect(committed).toMatchObject({ digest: validationDigest(true), failure: undefined })
    const revealed = await revealResult(auditor, {
      deployment: deployment(),
      taskId,
      result: cids.logs,
      validation: 'passed',
      receipt: anyCid,
      salt: committed.salt,
      runtimeSec: 1,
    })
    // The auditor revealed the validation digest itself; the chain has its seal.
    expect(revealed).toMatchObject({ digest: passed, failure: undefined, result: cids.logs })
    expect(revealed.settlement).toMatchObject({
      status: 'Completed',
      failure: undefined,
      audit: { verdict: 'upheld', resultDigest: passed },
    })
    expect(revealed.settlement?.payments.map((payment) => payment.provider)).toEqual([
      provider.account.address,
      auditor.account.address,
    ])
    expect(await getTask(client, { deployment: deployment(), taskId })).toMatchObject({
      status: 'Completed',
      failed: false,
    })
  })
})
