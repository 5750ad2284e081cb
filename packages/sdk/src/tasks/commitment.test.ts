import { CID } from 'multiformats/cid'
import * as Digest from 'multiformats/hashes/digest'
import { sha256 } from 'multiformats/hashes/sha2'
import { encodeAbiParameters, keccak256, parseEventLogs } from 'viem'
import { describe, expect, it } from 'vitest'
import { deployment } from '../../test/chain.js'
import {
  anyCid,
  approvedClient,
  claimSeats,
  outputCid,
  publishTestSource,
  submitTestTask,
  testProvider,
} from '../../test/fixtures.js'
import {
  commitResult as commitResultFunction,
  getSlots,
  revealResult as revealResultFunction,
  TaskFinalized,
} from '../abis/taskMarket.js'
import { claimTask } from './claimTask.js'
import { computeCommitment, generateSalt, resultDigest, UnsupportedResultCidError } from './commitment.js'

describe('resultDigest', () => {
  it('is the sha2-256 digest of the content, whatever the codec', async () => {
    // anyCid is the raw CID of zero bytes.
    expect(resultDigest(anyCid)).toBe('0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
    const digest = await sha256.digest(new TextEncoder().encode('output'))
    const asRaw = CID.createV1(0x55, digest).toString()
    const asDagPb = CID.createV1(0x70, digest).toString()
    expect(resultDigest(asRaw)).toBe(resultDigest(asDagPb))
    expect(resultDigest(await outputCid('output'))).toBe(resultDigest(asRaw))
  })

  it('refuses CIDs hashed with anything but sha2-256, and non-CIDs', () => {
    const blake3 = CID.createV1(0x55, Digest.create(0x1e, new Uint8Array(32))).toString()
    for (const cid of [blake3, 'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG', 'not-a-cid']) {
      expect(() => resultDigest(cid)).toThrow(UnsupportedResultCidError)
    }
    expect(() => resultDigest(blake3)).toThrow('its multihash is 0x1e, not sha2-256 (0x12)')
  })
})

describe('computeCommitment', () => {
  it('is keccak256(abi.encode(taskId, provider, digest, salt))', () => {
    const input = {
      taskId: 7n,
      provider: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
      digest: resultDigest(anyCid),
      salt: `0x${'ab'.repeat(32)}`,
    } as const
    expect(computeCommitment(input)).toBe(
      keccak256(
        encodeAbiParameters(
          [{ type: 'uint256' }, { type: 'address' }, { type: 'bytes32' }, { type: 'bytes32' }],
          [input.taskId, input.provider, input.digest, input.salt],
        ),
      ),
    )
    expect(computeCommitment({ ...input, taskId: 8n })).not.toBe(computeCommitment(input))
  })

  it('matches what the market checks on a real commit and reveal', async () => {
    const sourceId = await publishTestSource({ deterministic: true })
    const client = await approvedClient({ grid: '10' })
    const providers = [await testProvider([sourceId]), await testProvider([sourceId])]
    const { taskId } = await submitTestTask(client, sourceId, { maxPayment: '1', replicas: 2 })
    const market = deployment().contracts.market
    const digest = resultDigest(await outputCid('agreed'))
    const salts = providers.map(() => generateSalt())
    await claimSeats(taskId, providers, (provider) =>
      claimTask(provider, { deployment: deployment(), taskId }),
    )
    for (const [index, provider] of providers.entries()) {
      const commitment = computeCommitment({
        taskId,
        provider: provider.account.address,
        digest,
        salt: salts[index]!,
      })
      await provider.waitForTransactionReceipt({
        hash: await provider.writeContract({
          address: market,
          abi: [commitResultFunction],
          functionName: 'commitResult',
          args: [taskId, commitment],
        }),
      })
      const slots = await provider.readContract({
        address: market,
        abi: [getSlots],
        functionName: 'getSlots',
        args: [taskId],
      })
      expect(slots[index]!.commitment).toBe(commitment)
    }
    let finalized: unknown[] = []
    for (const [index, provider] of providers.entries()) {
      const receipt = await provider.waitForTransactionReceipt({
        hash: await provider.writeContract({
          address: market,
          abi: [revealResultFunction],
          functionName: 'revealResult',
          args: [taskId, digest, salts[index]!, anyCid, anyCid, 1],
        }),
      })
      expect(receipt.status).toBe('success')
      finalized = parseEventLogs({ abi: [TaskFinalized], logs: receipt.logs })
    }
    expect(finalized).toMatchObject([{ args: { taskId, status: 4, resultDigest: digest } }])
  })
})

describe('generateSalt', () => {
  it('gives 32 fresh random bytes each time', () => {
    const salts = new Set(Array.from({ length: 16 }, generateSalt))
    expect(salts.size).toBe(16)
    for (const salt of salts) expect(salt).toMatch(/^0x[0-9a-f]{64}$/)
  })
})
