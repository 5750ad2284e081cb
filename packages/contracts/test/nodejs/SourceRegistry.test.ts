import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { keccak256, toHex, zeroAddress, zeroHash } from 'viem'
import {
  assertAddress,
  DEFAULT_IMAGE_DIGEST,
  DEFAULT_METADATA_CID,
  DEFAULT_SOURCE_REQUIREMENTS,
  deployGridforge,
} from './helpers/fixture.js'

const connection = await network.create()
const { viem, networkHelpers } = connection

const MAX_RUNTIME_SEC = 7 * 24 * 60 * 60
const MAX_CREATOR_FEE_BPS = 5_000
/** A failure fee is at most the whole price. */
const MAX_FAILURE_FEE_BPS = 10_000

describe('SourceRegistry', () => {
  it('exposes its bounds', async () => {
    const { sources } = await networkHelpers.loadFixture(deployGridforge)
    assert.equal(await sources.read.MAX_RUNTIME_SEC(), MAX_RUNTIME_SEC)
    assert.equal(await sources.read.MAX_CREATOR_FEE_BPS(), MAX_CREATOR_FEE_BPS)
    assert.equal(await sources.read.sourceCount(), 0)
  })

  describe('publish', () => {
    it('stores the source, numbers ids from 1 and emits SourcePublished', async () => {
      const { sources, clients } = await networkHelpers.loadFixture(deployGridforge)
      const alice = clients[0]!
      const requirements = { ...DEFAULT_SOURCE_REQUIREMENTS, minGpus: 2, deterministic: false }
      const hash = await sources.write.publish(
        [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, requirements, 250, 0, 0, 0],
        {
          account: alice.account,
        },
      )
      await viem.assertions.emitWithArgs(hash, sources, 'SourcePublished', [
        1,
        alice.account.address,
        0,
        DEFAULT_IMAGE_DIGEST,
        DEFAULT_METADATA_CID,
        requirements,
        250,
        0,
        0,
      ])
      const published = await networkHelpers.time.latest()

      assert.equal(await sources.read.sourceCount(), 1)
      const source = await sources.read.getSource([1])
      assertAddress(source.owner, alice)
      assert.equal(source.publishedAt, published)
      assert.equal(source.active, true)
      assert.equal(source.creatorFeeBps, 250)
      assert.equal(source.predecessor, 0)
      assert.equal(source.imageDigest, DEFAULT_IMAGE_DIGEST)
      assert.deepEqual(source.requirements, requirements)
      assert.equal(source.failureFeeBps, 0)
      assert.equal(source.validator, 0)
      assert.equal(source.metadataCID, DEFAULT_METADATA_CID)

      const terms = await sources.read.getSourceTerms([1])
      assertAddress(await sources.read.ownerOf([1]), alice)
      assert.deepEqual(terms, {
        active: true,
        creatorFeeBps: 250,
        failureFeeBps: 0,
        validator: 0,
        requirements,
      })

      // The return value is the new id.
      const { result } = await sources.simulate.publish(
        [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, requirements, 0, 0, 0, 0],
        { account: alice.account.address },
      )
      assert.equal(result, 2)
    })

    it('publishes a new version that names its predecessor', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const alice = clients[0]!
      const first = await publishSource(alice)
      const digest = keccak256(toHex('v2'))
      await viem.assertions.emitWithArgs(
        sources.write.publish(
          [digest, 'bafyv2', DEFAULT_SOURCE_REQUIREMENTS, MAX_CREATOR_FEE_BPS, first, 0, 0],
          {
            account: alice.account,
          },
        ),
        sources,
        'SourcePublished',
        [
          2,
          alice.account.address,
          first,
          digest,
          'bafyv2',
          DEFAULT_SOURCE_REQUIREMENTS,
          MAX_CREATOR_FEE_BPS,
          0,
          0,
        ],
      )
      assert.equal((await sources.read.getSource([2])).predecessor, first)
    })

    it('accepts the boundary values', async () => {
      const { sources, clients } = await networkHelpers.loadFixture(deployGridforge)
      const account = clients[0]!.account
      const requirements = {
        minGpus: 255,
        minVramMiB: 2 ** 32 - 1,
        minComputeCapability: 255,
        maxRuntimeSec: MAX_RUNTIME_SEC,
        deterministic: true,
      }
      await sources.write.publish(
        [DEFAULT_IMAGE_DIGEST, 'x'.repeat(128), requirements, MAX_CREATOR_FEE_BPS, 0, MAX_FAILURE_FEE_BPS, 0],
        { account },
      )
      // A validator whose runtime limit equals the workload's (the longest it may have).
      await sources.write.publish(
        [DEFAULT_IMAGE_DIGEST, 'x', { ...requirements, maxRuntimeSec: 1 }, 0, 0, 0, 0],
        {
          account,
        },
      )
      await sources.write.publish(
        [DEFAULT_IMAGE_DIGEST, 'x', { ...requirements, maxRuntimeSec: 1, deterministic: false }, 0, 0, 0, 2],
        { account },
      )
      assert.equal(await sources.read.sourceCount(), 3)
      const source = await sources.read.getSource([1])
      assert.deepEqual(source.requirements, requirements)
      assert.equal(source.failureFeeBps, MAX_FAILURE_FEE_BPS)
      assert.equal((await sources.read.getSource([3])).validator, 2)
    })

    it('rejects a zero image digest', async () => {
      const { sources } = await networkHelpers.loadFixture(deployGridforge)
      await viem.assertions.revertWithCustomError(
        sources.write.publish([zeroHash, DEFAULT_METADATA_CID, DEFAULT_SOURCE_REQUIREMENTS, 0, 0, 0, 0]),
        sources,
        'SourceRegistryZeroImageDigest',
      )
    })

    it('rejects an empty or over-long metadata CID', async () => {
      const { sources } = await networkHelpers.loadFixture(deployGridforge)
      for (const cid of ['', 'x'.repeat(129)]) {
        await viem.assertions.revertWithCustomError(
          sources.write.publish([DEFAULT_IMAGE_DIGEST, cid, DEFAULT_SOURCE_REQUIREMENTS, 0, 0, 0, 0]),
          sources,
          'SourceRegistryInvalidMetadataCID',
        )
      }
    })

    it('rejects maxRuntimeSec outside 1..MAX_RUNTIME_SEC', async () => {
      const { sources } = await networkHelpers.loadFixture(deployGridforge)
      for (const maxRuntimeSec of [0, MAX_RUNTIME_SEC + 1]) {
        await viem.assertions.revertWithCustomError(
          sources.write.publish([
            DEFAULT_IMAGE_DIGEST,
            DEFAULT_METADATA_CID,
            { ...DEFAULT_SOURCE_REQUIREMENTS, maxRuntimeSec },
            0,
            0,
            0,
            0,
          ]),
          sources,
          'SourceRegistryInvalidRequirements',
        )
      }
    })

    it('rejects a creator fee above MAX_CREATOR_FEE_BPS', async () => {
      const { sources } = await networkHelpers.loadFixture(deployGridforge)
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.publish([
          DEFAULT_IMAGE_DIGEST,
          DEFAULT_METADATA_CID,
          DEFAULT_SOURCE_REQUIREMENTS,
          5_001,
          0,
          0,
          0,
        ]),
        sources,
        'SourceRegistryCreatorFeeTooHigh',
        [5_001, MAX_CREATOR_FEE_BPS],
      )
    })

    it('rejects an unknown predecessor or one owned by someone else', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.publish([
          DEFAULT_IMAGE_DIGEST,
          DEFAULT_METADATA_CID,
          DEFAULT_SOURCE_REQUIREMENTS,
          0,
          7,
          0,
          0,
        ]),
        sources,
        'SourceRegistryUnknownSource',
        [7],
      )
      const first = await publishSource(alice)
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.publish(
          [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, DEFAULT_SOURCE_REQUIREMENTS, 0, first, 0, 0],
          {
            account: bob.account,
          },
        ),
        sources,
        'SourceRegistryNotSourceOwner',
        [first, bob.account.address],
      )
    })
  })

  describe('publish: failure fee and validator', () => {
    it('stores a valid failure fee and validator, returns them from getSource and getSourceTerms and emits them', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const alice = clients[0]!
      // The validator: deterministic, with a shorter runtime limit than the workload's (bob's).
      const validator = await publishSource(alice, {
        requirements: { maxRuntimeSec: 600, deterministic: true },
      })
      const bob = clients[1]!
      const requirements = { ...DEFAULT_SOURCE_REQUIREMENTS, maxRuntimeSec: 3_600, deterministic: false }
      const hash = await sources.write.publish(
        [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, requirements, 300, 0, 2_500, validator],
        { account: bob.account },
      )
      await viem.assertions.emitWithArgs(hash, sources, 'SourcePublished', [
        validator + 1,
        bob.account.address,
        0,
        DEFAULT_IMAGE_DIGEST,
        DEFAULT_METADATA_CID,
        requirements,
        300,
        2_500,
        validator,
      ])
      const id = validator + 1
      const source = await sources.read.getSource([id])
      assert.equal(source.failureFeeBps, 2_500)
      assert.equal(source.validator, validator)
      assert.equal(source.creatorFeeBps, 300)
      assert.deepEqual(source.requirements, requirements)
      assert.deepEqual(await sources.read.getSourceTerms([id]), {
        active: true,
        creatorFeeBps: 300,
        failureFeeBps: 2_500,
        validator,
        requirements,
      })
      // The validator itself keeps no validator and no failure fee.
      const checker = await sources.read.getSourceTerms([validator])
      assert.equal(checker.validator, 0)
      assert.equal(checker.failureFeeBps, 0)
      // Anyone may name any valid validator, whoever owns it.
      assertAddress(await sources.read.ownerOf([validator]), alice)
    })

    it('rejects a failure fee above 10,000 basis points', async () => {
      const { sources } = await networkHelpers.loadFixture(deployGridforge)
      for (const fee of [MAX_FAILURE_FEE_BPS + 1, 65_535]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          sources.write.publish([
            DEFAULT_IMAGE_DIGEST,
            DEFAULT_METADATA_CID,
            DEFAULT_SOURCE_REQUIREMENTS,
            0,
            0,
            fee,
            0,
          ]),
          sources,
          'SourceRegistryFailureFeeTooHigh',
          [fee],
        )
      }
      assert.equal(await sources.read.sourceCount(), 0)
    })

    it('rejects a validator that is unknown, not deterministic or allowed a longer run than the workload', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const alice = clients[0]!
      const workload = { ...DEFAULT_SOURCE_REQUIREMENTS, maxRuntimeSec: 3_600 }
      const opaque = await publishSource(alice, { requirements: { deterministic: false, maxRuntimeSec: 60 } })
      const longer = await publishSource(alice, {
        requirements: { deterministic: true, maxRuntimeSec: 3_601 },
      })
      const count = await sources.read.sourceCount()
      for (const validator of [count + 1, 4_294_967_295, opaque, longer]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          sources.write.publish([DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, workload, 0, 0, 0, validator], {
            account: alice.account,
          }),
          sources,
          'SourceRegistryInvalidValidator',
          [validator],
        )
      }
      assert.equal(await sources.read.sourceCount(), count, 'nothing was published')
      // The same deterministic source is a valid validator of a workload with a limit as long as its own.
      await sources.write.publish(
        [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, { ...workload, maxRuntimeSec: 3_601 }, 0, 0, 0, longer],
        { account: alice.account },
      )
      assert.equal((await sources.read.getSource([count + 1])).validator, longer)
    })
  })

  describe('deactivate / reactivate', () => {
    it('toggles the active flag with events', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const alice = clients[0]!
      const id = await publishSource(alice)
      await viem.assertions.emitWithArgs(
        sources.write.deactivate([id], { account: alice.account }),
        sources,
        'SourceDeactivated',
        [id],
      )
      assert.equal((await sources.read.getSource([id])).active, false)
      assert.equal((await sources.read.getSourceTerms([id])).active, false, 'getSourceTerms: active')
      await viem.assertions.emitWithArgs(
        sources.write.reactivate([id], { account: alice.account }),
        sources,
        'SourceReactivated',
        [id],
      )
      assert.equal((await sources.read.getSource([id])).active, true)
      assert.equal((await sources.read.getSourceTerms([id])).active, true, 'getSourceTerms: active')
    })

    it('rejects a state that does not change', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const alice = clients[0]!
      const id = await publishSource(alice)
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.reactivate([id], { account: alice.account }),
        sources,
        'SourceRegistryActiveUnchanged',
        [id, true],
      )
      await sources.write.deactivate([id], { account: alice.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.deactivate([id], { account: alice.account }),
        sources,
        'SourceRegistryActiveUnchanged',
        [id, false],
      )
    })

    it('only lets the owner change a source that exists', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const id = await publishSource(alice)
      for (const call of [sources.write.deactivate, sources.write.reactivate]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          call([id], { account: bob.account }),
          sources,
          'SourceRegistryNotSourceOwner',
          [id, bob.account.address],
        )
        await viem.assertions.revertWithCustomErrorWithArgs(
          call([id + 1], { account: alice.account }),
          sources,
          'SourceRegistryUnknownSource',
          [id + 1],
        )
      }
    })
  })

  describe('transfer', () => {
    it('moves ownership and with it the right to change and version the source', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const [alice, bob] = [clients[0]!, clients[1]!]
      const id = await publishSource(alice, { creatorFeeBps: 100 })
      await viem.assertions.emitWithArgs(
        sources.write.transfer([id, bob.account.address], { account: alice.account }),
        sources,
        'SourceTransferred',
        [id, alice.account.address, bob.account.address],
      )
      assertAddress((await sources.read.getSource([id])).owner, bob)
      assertAddress(await sources.read.ownerOf([id]), bob)

      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.deactivate([id], { account: alice.account }),
        sources,
        'SourceRegistryNotSourceOwner',
        [id, alice.account.address],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.transfer([id, alice.account.address], { account: alice.account }),
        sources,
        'SourceRegistryNotSourceOwner',
        [id, alice.account.address],
      )
      await sources.write.deactivate([id], { account: bob.account })
      const next = await publishSource(bob, { predecessor: id })
      assert.equal((await sources.read.getSource([next])).predecessor, id)
    })

    it('rejects the zero address and unknown sources', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      const alice = clients[0]!
      const id = await publishSource(alice)
      await viem.assertions.revertWithCustomError(
        sources.write.transfer([id, zeroAddress], { account: alice.account }),
        sources,
        'SourceRegistryZeroAddress',
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.transfer([id + 1, clients[1]!.account.address], { account: alice.account }),
        sources,
        'SourceRegistryUnknownSource',
        [id + 1],
      )
    })
  })

  describe('views', () => {
    it('revert for unknown sources, including id 0', async () => {
      const { sources, clients, publishSource } = await networkHelpers.loadFixture(deployGridforge)
      await publishSource(clients[0]!)
      for (const id of [0, 2]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          sources.read.getSource([id]),
          sources,
          'SourceRegistryUnknownSource',
          [id],
        )
        await viem.assertions.revertWithCustomErrorWithArgs(
          sources.read.getSourceTerms([id]),
          sources,
          'SourceRegistryUnknownSource',
          [id],
        )
        await viem.assertions.revertWithCustomErrorWithArgs(
          sources.read.ownerOf([id]),
          sources,
          'SourceRegistryUnknownSource',
          [id],
        )
      }
    })
  })
})
