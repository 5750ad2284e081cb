import { encodeAbiParameters, type Hex, keccak256, parseEventLogs, slice } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  cids,
  closeJoining,
  drawnTask,
  type FixtureClient,
  join,
  randomBytes32,
  send,
} from '../../test/fixtures.js'
import {
  commitResult as commitResultFunction,
  ResultRevealed,
  revealResult as revealResultFunction,
} from '../abis/taskMarket.js'
import { InvalidParametersError } from '../errors/validation.js'
import { computeCommitment, resultDigest } from './commitment.js'
import { failureDigest, failureKinds, validationDigest } from './failures.js'
import { getTask } from './getTask.js'
import { sealResult } from './seal.js'

/** The contract's sealOf for an output digest, spelled out with viem. */
const sealOf = (taskId: bigint, digest: Hex) =>
  keccak256(encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes32' }], [taskId, digest]))

/** "gf:fail" and a zero byte: the low 8 bytes of every failure digest. */
const mark = '67663a6661696c00'
const digestOf = (head: string) => `0x${head}${'00'.repeat(22)}${mark}` as Hex

describe('sealResult', () => {
  it('is keccak256(abi.encode(taskId, digest)) for an output digest', () => {
    const digest = resultDigest(cids.output)
    for (const taskId of [1n, 7n, 2n ** 64n, 2n ** 256n - 1n]) {
      expect(sealResult({ taskId, digest })).toBe(sealOf(taskId, digest))
    }
    expect(sealResult({ taskId: 7, digest })).toBe(sealOf(7n, digest))
    expect(sealResult({ taskId: 7n, digest: validationDigest(true) })).toBe(
      sealOf(7n, validationDigest(true)),
    )
    // Vectors, so that a change to the encoding is seen here first.
    expect(sealResult({ taskId: 1n, digest: `0x${'00'.repeat(32)}` })).toBe(
      '0xada5013122d395ba3c54772283fb069b10426056ef8ca54750cb9bb552a59e7d',
    )
    expect(sealResult({ taskId: 1n, digest: `0x${'00'.repeat(31)}01` })).toBe(
      '0xcc69885fda6bcc1a4ace058b4a62bf5e179ea78fd58a1ccd71c22cc9b688792f',
    )
  })

  it('binds the task: one output seals differently for every task', () => {
    const digest = resultDigest(cids.output)
    expect(sealResult({ taskId: 1n, digest })).not.toBe(sealResult({ taskId: 2n, digest }))
  })

  it('passes failure digests through, as the contract reads them', () => {
    for (const kind of failureKinds) {
      const failure = kind === 'exited' ? { kind, exitCode: 3 } : { kind }
      expect(sealResult({ taskId: 9n, digest: failureDigest(failure) })).toBe(failureDigest(failure))
    }
    // The contract does not look at byte 1 (the exit code) to tell a failure: nor does the seal.
    expect(sealResult({ taskId: 9n, digest: digestOf('0207') })).toBe(digestOf('0207'))
    expect(sealResult({ taskId: 9n, digest: digestOf('04ff') })).toBe(digestOf('04ff'))
    // Kind 0 and kinds past OutputTooLarge are no failures: sealed.
    expect(sealResult({ taskId: 9n, digest: digestOf('0000') })).toBe(sealOf(9n, digestOf('0000')))
    expect(sealResult({ taskId: 9n, digest: digestOf('0500') })).toBe(sealOf(9n, digestOf('0500')))
    // The mark alone is not enough: a non-zero byte between it and the head is an output digest.
    const near = `0x0100${'00'.repeat(21)}01${mark}` as Hex
    expect(sealResult({ taskId: 9n, digest: near })).toBe(sealOf(9n, near))
  })

  it('refuses what is not a task id and a digest', () => {
    expect(() => sealResult({ taskId: 0n, digest: resultDigest(cids.output) })).toThrow(
      InvalidParametersError,
    )
    expect(() => sealResult({ taskId: 1n, digest: '0x1234' })).toThrow(InvalidParametersError)
  })

  it('is what the market makes of the digests auditors reveal', async () => {
    // A held result drawn for an audit: its auditor reveals digests, and the market seals them.
    for (const found of [resultDigest(cids.output), failureDigest({ kind: 'outOfMemory' })]) {
      const { provider, auditors, taskId } = await drawnTask()
      const auditor = auditors[0] as unknown as FixtureClient
      const d = deployment()
      // The provider's held result keeps the first 8 bytes of the seal it handed in.
      const held = await getTask(provider, { deployment: d, taskId })
      expect(held.slots[0]?.resultTag).toBe(
        slice(sealResult({ taskId, digest: resultDigest(cids.output) }), 0, 8),
      )
      await join(auditor, d, taskId)
      await closeJoining(auditor, d, taskId)
      const salt = randomBytes32()
      const market = d.contracts.market
      await send(auditor, {
        address: market,
        abi: [commitResultFunction],
        functionName: 'commitResult',
        args: [taskId, computeCommitment({ taskId, provider: auditor.account.address, digest: found, salt })],
      })
      const receipt = await send(auditor, {
        address: market,
        abi: [revealResultFunction],
        functionName: 'revealResult',
        args: [taskId, found, salt, cids.logs, cids.input, 1],
      })
      const [revealed] = parseEventLogs({ abi: [ResultRevealed], logs: receipt.logs })
      expect(revealed?.args.resultDigest).toBe(sealResult({ taskId, digest: found }))
      expect(revealed?.args.resultDigest).toBe(
        found === resultDigest(cids.output) ? sealOf(taskId, found) : found,
      )
    }
  })
})
