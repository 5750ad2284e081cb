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
        [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, requirements, 250, 0],
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
      assert.equal(source.metadataCID, DEFAULT_METADATA_CID)

      const [active, creatorFeeBps, terms] = await sources.read.getSourceTerms([1])
      assertAddress(await sources.read.ownerOf([1]), alice)
      assert.equal(active, true)
      assert.equal(creatorFeeBps, 250)
      assert.deepEqual(terms, requirements)

      // The return value is the new id.
      const { result } = await sources.simulate.publish(
        [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, requirements, 0, 0],
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
        sources.write.publish([digest, 'bafyv2', DEFAULT_SOURCE_REQUIREMENTS, MAX_CREATOR_FEE_BPS, first], {
          account: alice.account,
        }),
        sources,
        'SourcePublished',
        [2, alice.account.address, first, digest, 'bafyv2', DEFAULT_SOURCE_REQUIREMENTS, MAX_CREATOR_FEE_BPS],
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
        [DEFAULT_IMAGE_DIGEST, 'x'.repeat(128), requirements, MAX_CREATOR_FEE_BPS, 0],
        { account },
      )
      await sources.write.publish([DEFAULT_IMAGE_DIGEST, 'x', { ...requirements, maxRuntimeSec: 1 }, 0, 0], {
        account,
      })
      assert.equal(await sources.read.sourceCount(), 2)
      assert.deepEqual((await sources.read.getSource([1])).requirements, requirements)
    })

    it('rejects a zero image digest', async () => {
      const { sources } = await networkHelpers.loadFixture(deployGridforge)
      await viem.assertions.revertWithCustomError(
        sources.write.publish([zeroHash, DEFAULT_METADATA_CID, DEFAULT_SOURCE_REQUIREMENTS, 0, 0]),
        sources,
        'SourceRegistryZeroImageDigest',
      )
    })

    it('rejects an empty or over-long metadata CID', async () => {
      const { sources } = await networkHelpers.loadFixture(deployGridforge)
      for (const cid of ['', 'x'.repeat(129)]) {
        await viem.assertions.revertWithCustomError(
          sources.write.publish([DEFAULT_IMAGE_DIGEST, cid, DEFAULT_SOURCE_REQUIREMENTS, 0, 0]),
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
        ]),
        sources,
        'SourceRegistryUnknownSource',
        [7],
      )
      const first = await publishSource(alice)
      await viem.assertions.revertWithCustomErrorWithArgs(
        sources.write.publish(
          [DEFAULT_IMAGE_DIGEST, DEFAULT_METADATA_CID, DEFAULT_SOURCE_REQUIREMENTS, 0, first],
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
      assert.equal((await sources.read.getSourceTerms([id]))[0], false, 'getSourceTerms: active')
      await viem.assertions.emitWithArgs(
        sources.write.reactivate([id], { account: alice.account }),
        sources,
        'SourceReactivated',
        [id],
      )
      assert.equal((await sources.read.getSource([id])).active, true)
      assert.equal((await sources.read.getSourceTerms([id]))[0], true, 'getSourceTerms: active')
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
