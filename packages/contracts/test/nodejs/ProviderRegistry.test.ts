import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { type Address, keccak256, parseEther, toHex, zeroAddress } from 'viem'
import {
  assertAddress,
  DEFAULT_CAPABILITIES,
  DEFAULT_PROFILE_CID,
  DEFAULT_SOURCE_REQUIREMENTS,
  deployGridforge,
  type Gridforge,
  grid,
  NO_EXTRA_REQUIREMENTS,
  sealOf,
  type Wallet,
} from './helpers/fixture.js'

const connection = await network.create()
const { viem, networkHelpers } = connection

const MIN_PROVIDER_STAKE = grid(100)
const NO_REPUTATION = {
  claimed: 0,
  completed: 0,
  failed: 0,
  outvoted: 0,
  totalRuntimeSec: 0n,
  slashedAmount: 0n,
  failedRuns: 0,
}

/** Approves and stakes `amount` as `wallet`. */
async function stake(gf: Gridforge, wallet: Wallet, amount: bigint) {
  await gf.token.write.approve([gf.staking.address, amount], { account: wallet.account })
  await gf.staking.write.stake([amount], { account: wallet.account })
}

/** Lets the tests call market-only functions as the real market address. */
async function impersonateMarket(gf: Gridforge): Promise<Address> {
  await networkHelpers.impersonateAccount(gf.market.address)
  await networkHelpers.setBalance(gf.market.address, parseEther('10'))
  return gf.market.address
}

describe('ProviderRegistry', () => {
  describe('deployment', () => {
    it('is wired to the market with the default minimum stake', async () => {
      const { providers, market, owner } = await networkHelpers.loadFixture(deployGridforge)
      assertAddress(await providers.read.market(), market.address)
      assertAddress(await providers.read.owner(), owner)
      assert.equal(await providers.read.minProviderStake(), MIN_PROVIDER_STAKE)
      assert.ok((await providers.read.MAX_MIN_PROVIDER_STAKE()) >= MIN_PROVIDER_STAKE)
    })

    it('rejects zero addresses and an out-of-bounds minimum stake', async () => {
      const { providers, sources, staking, market, owner } = await networkHelpers.loadFixture(deployGridforge)
      const max = await providers.read.MAX_MIN_PROVIDER_STAKE()
      const ownerAddress = owner.account.address
      for (const args of [
        [zeroAddress, staking.address, market.address, ownerAddress, 0n],
        [sources.address, zeroAddress, market.address, ownerAddress, 0n],
        [sources.address, staking.address, zeroAddress, ownerAddress, 0n],
      ] as const) {
        await viem.assertions.revertWithCustomError(
          viem.deployContract('ProviderRegistry', [...args]),
          providers,
          'ProviderRegistryZeroAddress',
        )
      }
      await viem.assertions.revertWithCustomErrorWithArgs(
        viem.deployContract('ProviderRegistry', [
          sources.address,
          staking.address,
          market.address,
          ownerAddress,
          max + 1n,
        ]),
        providers,
        'ProviderRegistryMinStakeOutOfBounds',
        [max + 1n, max],
      )
    })

    it('is deployed by the market, which it names as its immutable market; the initial owner owns it', async () => {
      const { providers, market, owner, others } = await networkHelpers.loadFixture(deployGridforge)
      assertAddress(await market.read.providers(), providers.address)
      assertAddress(await providers.read.market(), market.address)
      assertAddress(await providers.read.owner(), owner)
      assertAddress(await providers.read.pendingOwner(), zeroAddress)
      // the market never owns it, and nothing can re-point it: there is no setter left
      assert.notEqual((await providers.read.owner()).toLowerCase(), market.address.toLowerCase())
      assert.equal(
        providers.abi.some(
          (item) => item.type === 'function' && /market/i.test(item.name) && item.name !== 'market',
        ),
        false,
      )
      // a new owner cannot change the market either
      await providers.write.transferOwnership([others[0]!.account.address])
      await providers.write.acceptOwnership({ account: others[0]!.account })
      assertAddress(await providers.read.market(), market.address)
    })
  })

  describe('register', () => {
    it('registers a provider with enough available stake', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      assert.deepEqual(await providers.read.getProvider([alice.account.address]), {
        registered: false,
        paused: false,
        registeredAt: 0,
        capabilities: { gpuCount: 0, vramMiB: 0, computeCapability: 0, cpuCores: 0, memoryMiB: 0 },
        reputation: NO_REPUTATION,
      })
      await stake(gf, alice, MIN_PROVIDER_STAKE)
      // A CPU-only host is a valid provider.
      const capabilities = { ...DEFAULT_CAPABILITIES, gpuCount: 0, vramMiB: 0, computeCapability: 0 }
      await viem.assertions.emitWithArgs(
        providers.write.register([capabilities, DEFAULT_PROFILE_CID], { account: alice.account }),
        providers,
        'ProviderRegistered',
        [alice.account.address, capabilities, DEFAULT_PROFILE_CID],
      )
      assert.deepEqual(await providers.read.getProvider([alice.account.address]), {
        registered: true,
        paused: false,
        registeredAt: await networkHelpers.time.latest(),
        capabilities,
        reputation: NO_REPUTATION,
      })
      assert.deepEqual(await providers.read.getReputation([alice.account.address]), NO_REPUTATION)
      // No finished slot: no record (0), not a perfect one.
      assert.equal(await providers.read.successBps([alice.account.address]), 0)
    })

    it('accepts a profile CID of 128 bytes', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const alice = gf.providerWallets[0]!
      await gf.registerProvider(alice, { profileCID: 'x'.repeat(128) })
      assert.equal((await gf.providers.read.getProvider([alice.account.address])).registered, true)
    })

    it('requires available stake of at least minProviderStake', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers, staking } = gf
      const alice = gf.providerWallets[0]!
      const register = () =>
        providers.write.register([DEFAULT_CAPABILITIES, DEFAULT_PROFILE_CID], { account: alice.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        register(),
        providers,
        'ProviderRegistryInsufficientStake',
        [alice.account.address, 0n, MIN_PROVIDER_STAKE],
      )
      await stake(gf, alice, MIN_PROVIDER_STAKE + grid(50))
      // Unbonding stake does not count.
      await staking.write.requestUnbond([grid(51)], { account: alice.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        register(),
        providers,
        'ProviderRegistryInsufficientStake',
        [alice.account.address, MIN_PROVIDER_STAKE - grid(1), MIN_PROVIDER_STAKE],
      )
      await stake(gf, alice, grid(1))
      await register()
    })

    it('rejects capabilities without CPU cores or memory', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const alice = gf.providerWallets[0]!
      await stake(gf, alice, MIN_PROVIDER_STAKE)
      for (const capabilities of [
        { ...DEFAULT_CAPABILITIES, cpuCores: 0 },
        { ...DEFAULT_CAPABILITIES, memoryMiB: 0 },
      ]) {
        await viem.assertions.revertWithCustomError(
          gf.providers.write.register([capabilities, DEFAULT_PROFILE_CID], { account: alice.account }),
          gf.providers,
          'ProviderRegistryInvalidCapabilities',
        )
      }
    })

    it('rejects an empty or over-long profile CID', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const alice = gf.providerWallets[0]!
      await stake(gf, alice, MIN_PROVIDER_STAKE)
      for (const cid of ['', 'x'.repeat(129)]) {
        await viem.assertions.revertWithCustomError(
          gf.providers.write.register([DEFAULT_CAPABILITIES, cid], { account: alice.account }),
          gf.providers,
          'ProviderRegistryInvalidProfileCID',
        )
      }
    })

    it('rejects a second registration', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const alice = gf.providerWallets[0]!
      await gf.registerProvider(alice)
      await viem.assertions.revertWithCustomErrorWithArgs(
        gf.providers.write.register([DEFAULT_CAPABILITIES, DEFAULT_PROFILE_CID], { account: alice.account }),
        gf.providers,
        'ProviderRegistryAlreadyRegistered',
        [alice.account.address],
      )
    })
  })

  describe('updateCapabilities', () => {
    it('replaces the capabilities and emits ProviderUpdated', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      await gf.registerProvider(alice)
      const registeredAt = (await providers.read.getProvider([alice.account.address])).registeredAt
      const capabilities = {
        gpuCount: 8,
        vramMiB: 81_920,
        computeCapability: 90,
        cpuCores: 128,
        memoryMiB: 1_048_576,
      }
      await viem.assertions.emitWithArgs(
        providers.write.updateCapabilities([capabilities, 'bafynewprofile'], { account: alice.account }),
        providers,
        'ProviderUpdated',
        [alice.account.address, capabilities, 'bafynewprofile'],
      )
      const info = await providers.read.getProvider([alice.account.address])
      assert.deepEqual(info.capabilities, capabilities)
      assert.equal(info.registered, true)
      assert.equal(info.registeredAt, registeredAt)
    })

    it('rejects unregistered callers and invalid values', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const [alice, bob] = [gf.providerWallets[0]!, gf.providerWallets[1]!]
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.updateCapabilities([DEFAULT_CAPABILITIES, DEFAULT_PROFILE_CID], {
          account: bob.account,
        }),
        providers,
        'ProviderRegistryNotRegistered',
        [bob.account.address],
      )
      await gf.registerProvider(alice)
      await viem.assertions.revertWithCustomError(
        providers.write.updateCapabilities([{ ...DEFAULT_CAPABILITIES, cpuCores: 0 }, DEFAULT_PROFILE_CID], {
          account: alice.account,
        }),
        providers,
        'ProviderRegistryInvalidCapabilities',
      )
      await viem.assertions.revertWithCustomError(
        providers.write.updateCapabilities([DEFAULT_CAPABILITIES, ''], { account: alice.account }),
        providers,
        'ProviderRegistryInvalidProfileCID',
      )
    })
  })

  describe('subscriptions', () => {
    it('subscribe joins pools and skips ids already subscribed', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      const first = await gf.publishSource(gf.owner)
      const second = await gf.publishSource(gf.owner)
      await gf.registerProvider(alice)

      const hash = await providers.write.subscribe([[first]], { account: alice.account })
      await viem.assertions.emitWithArgs(hash, providers, 'ProviderSubscribed', [
        alice.account.address,
        first,
      ])
      assert.equal(await providers.read.isSubscribed([alice.account.address, first]), true)
      assert.equal(await providers.read.isSubscribed([alice.account.address, second]), false)

      const again = await gf.getEvents(
        providers.write.subscribe([[first, second, second]], { account: alice.account }),
        providers,
        'ProviderSubscribed',
      )
      assert.deepEqual(
        again.map((event) => event.sourceId),
        [second],
      )
      assert.equal(await providers.read.isSubscribed([alice.account.address, second]), true)
      const none = await gf.getEvents(
        providers.write.subscribe([[first, second]], { account: alice.account }),
        providers,
        'ProviderSubscribed',
      )
      assert.deepEqual(none, [])
    })

    it('subscribe rejects unknown sources, unregistered callers and too many ids', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const [alice, bob] = [gf.providerWallets[0]!, gf.providerWallets[1]!]
      const id = await gf.publishSource(gf.owner)
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.subscribe([[id]], { account: bob.account }),
        providers,
        'ProviderRegistryNotRegistered',
        [bob.account.address],
      )
      await gf.registerProvider(alice)
      for (const unknown of [0, id + 1]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          providers.write.subscribe([[id, unknown]], { account: alice.account }),
          providers,
          'ProviderRegistryUnknownSource',
          [unknown],
        )
      }
      assert.equal(await providers.read.isSubscribed([alice.account.address, id]), false)
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.subscribe([Array.from({ length: 101 }, () => id)], { account: alice.account }),
        providers,
        'ProviderRegistryTooManySources',
        [101n],
      )
      await providers.write.subscribe([Array.from({ length: 100 }, () => id)], { account: alice.account })
    })

    it('unsubscribe leaves pools and skips ids not subscribed', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      const first = await gf.publishSource(gf.owner)
      const second = await gf.publishSource(gf.owner)
      await gf.registerProvider(alice, { sourceIds: [first] })

      const left = await gf.getEvents(
        providers.write.unsubscribe([[first, second, 999]], { account: alice.account }),
        providers,
        'ProviderUnsubscribed',
      )
      assert.equal(left.length, 1)
      assertAddress(left[0]!.provider!, alice)
      assert.equal(left[0]!.sourceId, first)
      assert.equal(await providers.read.isSubscribed([alice.account.address, first]), false)

      await providers.write.subscribe([[first]], { account: alice.account })
      await viem.assertions.emitWithArgs(
        providers.write.unsubscribe([[first]], { account: alice.account }),
        providers,
        'ProviderUnsubscribed',
        [alice.account.address, first],
      )
      assert.deepEqual(
        await gf.getEvents(
          providers.write.unsubscribe([[first]], { account: alice.account }),
          providers,
          'ProviderUnsubscribed',
        ),
        [],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.unsubscribe([Array.from({ length: 101 }, () => first)], { account: alice.account }),
        providers,
        'ProviderRegistryTooManySources',
        [101n],
      )
    })
  })

  describe('pause / resume', () => {
    it('toggles the paused flag with events', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      await gf.registerProvider(alice)
      await viem.assertions.emitWithArgs(
        providers.write.pause({ account: alice.account }),
        providers,
        'ProviderPaused',
        [alice.account.address],
      )
      assert.equal((await providers.read.getProvider([alice.account.address])).paused, true)
      await viem.assertions.emitWithArgs(
        providers.write.resume({ account: alice.account }),
        providers,
        'ProviderResumed',
        [alice.account.address],
      )
      assert.equal((await providers.read.getProvider([alice.account.address])).paused, false)
    })

    it('rejects an unchanged state and unregistered callers', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const [alice, bob] = [gf.providerWallets[0]!, gf.providerWallets[1]!]
      for (const call of [providers.write.pause, providers.write.resume]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          call({ account: bob.account }),
          providers,
          'ProviderRegistryNotRegistered',
          [bob.account.address],
        )
      }
      await gf.registerProvider(alice)
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.resume({ account: alice.account }),
        providers,
        'ProviderRegistryPausedUnchanged',
        [alice.account.address, false],
      )
      await providers.write.pause({ account: alice.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.pause({ account: alice.account }),
        providers,
        'ProviderRegistryPausedUnchanged',
        [alice.account.address, true],
      )
    })
  })

  describe('price floor', () => {
    it('setPriceFloor publishes the least a provider takes per GPU-second; priceFloorOf reads it', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const [alice, bob] = [gf.providerWallets[0]!, gf.providerWallets[1]!]
      await gf.registerProvider(alice)
      await gf.registerProvider(bob)
      assert.equal(await providers.read.priceFloorOf([alice.account.address]), 0n)
      const floor = 10n ** 12n
      await viem.assertions.emitWithArgs(
        providers.write.setPriceFloor([floor], { account: alice.account }),
        providers,
        'PriceFloorSet',
        [alice.account.address, floor],
      )
      assert.equal(await providers.read.priceFloorOf([alice.account.address]), floor)
      // Each provider has its own floor; lowering it back to 0 (any price) is allowed.
      assert.equal(await providers.read.priceFloorOf([bob.account.address]), 0n)
      await providers.write.setPriceFloor([0n], { account: alice.account })
      assert.equal(await providers.read.priceFloorOf([alice.account.address]), 0n)
      // A paused provider may still publish its floor (it applies once it resumes).
      await providers.write.pause({ account: bob.account })
      await providers.write.setPriceFloor([floor], { account: bob.account })
      assert.equal(await providers.read.priceFloorOf([bob.account.address]), floor)
    })

    it('refuses an unregistered caller', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const carol = gf.providerWallets[2]!
      await viem.assertions.revertWithCustomErrorWithArgs(
        gf.providers.write.setPriceFloor([1n], { account: carol.account }),
        gf.providers,
        'ProviderRegistryNotRegistered',
        [carol.account.address],
      )
      assert.equal(await gf.providers.read.priceFloorOf([carol.account.address]), 0n)
    })

    it('is not checked by a claim: the floor is what the provider says it takes, not a market rule', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers, market } = gf
      const alice = gf.providerWallets[0]!
      const sourceId = await gf.publishSource(gf.owner, { requirements: { deterministic: false } })
      await gf.registerProvider(alice, { sourceIds: [sourceId] })
      // Far above what any task pays per GPU-second.
      await providers.write.setPriceFloor([grid(1_000_000)], { account: alice.account })
      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([taskId], { account: alice.account })
      assert.equal((await providers.read.getReputation([alice.account.address])).claimed, 1)
    })
  })

  describe('market hooks', () => {
    it('recordClaim, recordCompletion, recordFailure and recordOverturned are market only', async () => {
      const { providers, owner, others } = await networkHelpers.loadFixture(deployGridforge)
      const target = others[1]!.account.address
      for (const caller of [owner, others[0]!]) {
        const account = caller.account
        const calls = [
          () => providers.write.recordClaim([target, 1, NO_EXTRA_REQUIREMENTS, 0, 0], { account }),
          () => providers.write.recordCompletion([target, 10, grid(10), false], { account }),
          () => providers.write.recordCompletion([target, 10, grid(10), true], { account }),
          () => providers.write.recordFailure([target, false, 1n], { account }),
          () => providers.write.recordOverturned([target, 1n, grid(10), false], { account }),
          () => providers.write.recordOverturned([target, 1n, grid(10), true], { account }),
        ]
        for (const call of calls) {
          await viem.assertions.revertWithCustomErrorWithArgs(
            call(),
            providers,
            'ProviderRegistryNotMarket',
            [account.address],
          )
        }
      }
    })

    it('count claims, completions, failures and slashes; successBps follows', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      const provider = alice.account.address
      const sourceId = await gf.publishSource(gf.owner)
      await gf.registerProvider(alice, { sourceIds: [sourceId] })
      const market = await impersonateMarket(gf)

      await providers.write.recordClaim([provider, sourceId, DEFAULT_SOURCE_REQUIREMENTS, 0, 0], {
        account: market,
      })
      await providers.write.recordClaim([provider, sourceId, DEFAULT_SOURCE_REQUIREMENTS, 0, 0], {
        account: market,
      })
      await providers.write.recordCompletion([provider, 120, grid(10), false], { account: market })
      await providers.write.recordCompletion([provider, 30, grid(10), false], { account: market })
      // Two completions and nothing else: a perfect record passes the highest gate.
      await providers.write.recordClaim([provider, sourceId, DEFAULT_SOURCE_REQUIREMENTS, 10_000, 2], {
        account: market,
      })
      await providers.write.recordFailure([provider, false, grid(5)], { account: market })
      await providers.write.recordFailure([provider, true, grid(2)], { account: market })
      const reputation = {
        claimed: 3,
        completed: 2,
        failed: 1,
        outvoted: 1,
        totalRuntimeSec: 150n,
        slashedAmount: grid(7),
        failedRuns: 0,
      }
      assert.deepEqual(await providers.read.getReputation([provider]), reputation)
      assert.deepEqual((await providers.read.getProvider([provider])).reputation, reputation)
      assert.equal(await providers.read.successBps([provider]), 5_000) // 2 / (2 + 1 + 1)

      await providers.write.recordFailure([provider, false, 0n], { account: market })
      assert.equal(await providers.read.successBps([provider]), 4_000) // 2 / 5

      // An audit overturns a result counted as completed: it counts as outvoted instead, and its slash is added.
      await providers.write.recordOverturned([provider, grid(3), grid(10), false], { account: market })
      const overturned = await providers.read.getReputation([provider])
      assert.equal(overturned.completed, 1)
      assert.equal(overturned.failedRuns, 0)
      assert.equal(overturned.outvoted, 2)
      assert.equal(overturned.failed, 2)
      assert.equal(overturned.claimed, 3)
      assert.equal(overturned.slashedAmount, grid(10))
      assert.equal(await providers.read.successBps([provider]), 2_000) // 1 / 5
      await networkHelpers.stopImpersonatingAccount(market)
    })

    it('a failed run counts in failedRuns, not completed, and does not lower successBps', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      const provider = alice.account.address
      await gf.registerProvider(alice)
      const market = await impersonateMarket(gf)

      // Only failed runs: still no record.
      await providers.write.recordCompletion([provider, 40, grid(10), true], { account: market })
      assert.deepEqual(await providers.read.getReputation([provider]), {
        ...NO_REPUTATION,
        totalRuntimeSec: 40n,
        failedRuns: 1,
      })
      assert.equal(await providers.read.successBps([provider]), 0)

      await providers.write.recordCompletion([provider, 100, grid(10), false], { account: market })
      await providers.write.recordFailure([provider, false, 0n], { account: market })
      assert.equal(await providers.read.successBps([provider]), 5_000) // 1 / (1 + 1)
      await providers.write.recordCompletion([provider, 7, grid(10), true], { account: market })
      await providers.write.recordCompletion([provider, 3, grid(10), true], { account: market })
      assert.deepEqual(await providers.read.getReputation([provider]), {
        ...NO_REPUTATION,
        completed: 1,
        failed: 1,
        totalRuntimeSec: 150n,
        failedRuns: 3,
      })
      assert.equal(await providers.read.successBps([provider]), 5_000, 'failed runs do not count against it')
      await networkHelpers.stopImpersonatingAccount(market)
    })

    it('recordOverturned of a failed run turns it into outvoted, leaving completed alone', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const alice = gf.providerWallets[0]!
      const provider = alice.account.address
      await gf.registerProvider(alice)
      const market = await impersonateMarket(gf)

      await providers.write.recordCompletion([provider, 60, grid(10), false], { account: market })
      await providers.write.recordCompletion([provider, 30, grid(10), true], { account: market })
      assert.equal(await providers.read.successBps([provider]), 10_000) // 1 / 1
      await providers.write.recordOverturned([provider, grid(4), grid(10), true], { account: market })
      assert.deepEqual(await providers.read.getReputation([provider]), {
        ...NO_REPUTATION,
        completed: 1,
        outvoted: 1,
        totalRuntimeSec: 90n,
        slashedAmount: grid(4),
        failedRuns: 0,
      })
      assert.equal(await providers.read.successBps([provider]), 5_000) // 1 / (1 + 1)

      // The completed result overturned in turn: no success left.
      await providers.write.recordOverturned([provider, grid(1), grid(10), false], { account: market })
      const reputation = await providers.read.getReputation([provider])
      assert.equal(reputation.completed, 0)
      assert.equal(reputation.outvoted, 2)
      assert.equal(reputation.failedRuns, 0)
      assert.equal(reputation.slashedAmount, grid(5))
      assert.equal(await providers.read.successBps([provider]), 0)
      await networkHelpers.stopImpersonatingAccount(market)
    })

    it('recordClaim checks registration, pause, subscription, capabilities and reputation, in that order', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const [alice, bob] = [gf.providerWallets[0]!, gf.providerWallets[1]!]
      const provider = alice.account.address
      const sourceId = await gf.publishSource(gf.owner)
      const market = await impersonateMarket(gf)
      const claim = (requirements = DEFAULT_SOURCE_REQUIREMENTS, minSuccessBps = 0, minCompleted = 0) =>
        providers.write.recordClaim([provider, sourceId, requirements, minSuccessBps, minCompleted], {
          account: market,
        })
      const tooMuch = { ...DEFAULT_SOURCE_REQUIREMENTS, minGpus: DEFAULT_CAPABILITIES.gpuCount + 1 }

      await viem.assertions.revertWithCustomErrorWithArgs(
        claim(),
        providers,
        'ProviderRegistryNotRegistered',
        [provider],
      )
      await gf.registerProvider(alice)
      await providers.write.pause({ account: alice.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        claim(tooMuch, 10_000, 5),
        providers,
        'ProviderRegistryPaused',
        [provider],
      )
      await providers.write.resume({ account: alice.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        claim(tooMuch, 10_000, 5),
        providers,
        'ProviderRegistryNotSubscribed',
        [provider, sourceId],
      )
      await providers.write.subscribe([[sourceId]], { account: alice.account })
      for (const requirements of [
        tooMuch,
        { ...DEFAULT_SOURCE_REQUIREMENTS, minVramMiB: DEFAULT_CAPABILITIES.vramMiB + 1 },
        { ...DEFAULT_SOURCE_REQUIREMENTS, minComputeCapability: DEFAULT_CAPABILITIES.computeCapability + 1 },
      ]) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          claim(requirements, 10_000, 5),
          providers,
          'ProviderRegistryInsufficientCapabilities',
          [provider],
        )
      }
      // Exactly the provider's capabilities is enough.
      const exact = {
        ...DEFAULT_SOURCE_REQUIREMENTS,
        minGpus: DEFAULT_CAPABILITIES.gpuCount,
        minVramMiB: DEFAULT_CAPABILITIES.vramMiB,
        minComputeCapability: DEFAULT_CAPABILITIES.computeCapability,
      }
      // A fresh provider has no record: it fails any gate (successBps 0), and passes only a task without one.
      for (const [minSuccessBps, minCompleted] of [
        [0, 1],
        [1, 0],
        [10_000, 0],
      ] as const) {
        await viem.assertions.revertWithCustomErrorWithArgs(
          claim(exact, minSuccessBps, minCompleted),
          providers,
          'ProviderRegistryReputationTooLow',
          [provider, 0, 0],
        )
      }
      await claim(exact, 0, 0)

      // One completion: a perfect record passes the highest gate.
      await providers.write.recordCompletion([provider, 1, grid(10), false], { account: market })
      await claim(exact, 10_000, 1)
      await providers.write.recordFailure([provider, false, 0n], { account: market })
      await viem.assertions.revertWithCustomErrorWithArgs(
        claim(exact, 5_001, 1),
        providers,
        'ProviderRegistryReputationTooLow',
        [provider, 1, 5_000],
      )
      await claim(exact, 5_000, 1)
      assert.equal((await providers.read.getReputation([provider])).claimed, 3)
      // Other providers are unaffected.
      assert.deepEqual(await providers.read.getReputation([bob.account.address]), NO_REPUTATION)
      await networkHelpers.stopImpersonatingAccount(market)
    })

    it('the market records a completed task and a no-show', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers, market } = gf
      const alice = gf.providerWallets[0]!
      const provider = alice.account.address
      // not deterministic: a k = 1 result settles at submission, without an audit
      const sourceId = await gf.publishSource(gf.owner, { requirements: { deterministic: false } })
      await gf.registerProvider(alice, { sourceIds: [sourceId] })
      const collateral = await market.read.collateralFor([grid(10), 0])

      const done = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([done], { account: alice.account })
      assert.equal((await providers.read.getReputation([provider])).claimed, 1)
      await networkHelpers.time.increase(100)
      await market.write.submitResult(
        [done, sealOf(done, keccak256(toHex('result'))), 'bafyresult', 'bafyreceipt', 60],
        {
          account: alice.account,
        },
      )

      const missed = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([missed], { account: alice.account })
      const [slot] = await market.read.getSlots([missed])
      await networkHelpers.time.increaseTo(slot!.dueAt + 1)
      await market.write.reopenSlot([missed, 0], { account: gf.others[0]!.account })

      assert.deepEqual(await providers.read.getReputation([provider]), {
        claimed: 2,
        completed: 1,
        failed: 1,
        outvoted: 0,
        totalRuntimeSec: 60n,
        slashedAmount: collateral,
        failedRuns: 0,
      })
      assert.equal(await providers.read.successBps([provider]), 5_000)

      // Reputation gates now bite through the market.
      const gated = await gf.submitTask(
        gf.clients[0]!,
        await gf.defaultTaskParams(sourceId, { minSuccessBps: 6_000 }),
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.claimTask([gated], { account: alice.account }),
        providers,
        'ProviderRegistryReputationTooLow',
        [provider, 1, 5_000],
      )
      await gf.checkInvariants()
    })

    it('a fresh provider has no record: successBps 0, and a task with minSuccessBps > 0 refuses it', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers, market } = gf
      const alice = gf.providerWallets[0]!
      const provider = alice.account.address
      const sourceId = await gf.publishSource(gf.owner, { requirements: { deterministic: false } })
      await gf.registerProvider(alice, { sourceIds: [sourceId] })
      assert.equal(await providers.read.successBps([provider]), 0)

      const gatedTasks: bigint[] = []
      for (const minSuccessBps of [1, 5_000, 10_000]) {
        const gated = await gf.submitTask(
          gf.clients[0]!,
          await gf.defaultTaskParams(sourceId, { minSuccessBps }),
        )
        await viem.assertions.revertWithCustomErrorWithArgs(
          market.write.claimTask([gated], { account: alice.account }),
          providers,
          'ProviderRegistryReputationTooLow',
          [provider, 0, 0],
        )
        gatedTasks.push(gated)
      }
      // A task without gates takes it; once it has completed one, the gates let it in.
      const open = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))
      await market.write.claimTask([open], { account: alice.account })
      await networkHelpers.time.increase(60)
      await market.write.submitResult(
        [open, sealOf(open, keccak256(toHex('result'))), 'bafyresult', 'bafyreceipt', 60],
        {
          account: alice.account,
        },
      )
      assert.equal(await providers.read.successBps([provider]), 10_000)
      for (const gated of gatedTasks) await market.write.claimTask([gated], { account: alice.account })
      assert.equal((await providers.read.getReputation([provider])).claimed, 1 + gatedTasks.length)
      await gf.checkInvariants()
    })

    it('the market refuses claims from paused, unsubscribed or under-equipped providers', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers, market } = gf
      const [alice, bob, carol] = [gf.providerWallets[0]!, gf.providerWallets[1]!, gf.providerWallets[2]!]
      const sourceId = await gf.publishSource(gf.owner)
      await gf.registerProvider(alice, { sourceIds: [sourceId] })
      await gf.registerProvider(bob)
      await gf.registerProvider(carol, { sourceIds: [sourceId], capabilities: { vramMiB: 8_192 } })
      const taskId = await gf.submitTask(gf.clients[0]!, await gf.defaultTaskParams(sourceId))

      await providers.write.pause({ account: alice.account })
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.claimTask([taskId], { account: alice.account }),
        providers,
        'ProviderRegistryPaused',
        [alice.account.address],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.claimTask([taskId], { account: bob.account }),
        providers,
        'ProviderRegistryNotSubscribed',
        [bob.account.address, sourceId],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.claimTask([taskId], { account: carol.account }),
        providers,
        'ProviderRegistryInsufficientCapabilities',
        [carol.account.address],
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.claimTask([taskId], { account: gf.others[0]!.account }),
        providers,
        'ProviderRegistryNotRegistered',
        [gf.others[0]!.account.address],
      )
      await providers.write.resume({ account: alice.account })
      await market.write.claimTask([taskId], { account: alice.account })
    })
  })

  describe('reputation that costs something', () => {
    it("self-dealt dust tasks do not build a record: five 1-wei tasks no longer pass minCompleted = 5 (the review's farm)", async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers, market } = gf
      const farmer = gf.providerWallets[0]!
      const own = gf.clients[1]!
      const sourceId = await gf.publishSource(gf.owner, { requirements: { deterministic: false } })
      await gf.registerProvider(farmer, { sourceIds: [sourceId] })
      const minRecord = await providers.read.minRecordPayment()
      assert.equal(minRecord, MIN_PROVIDER_STAKE / 1_000n, 'a thousandth of the stake floor by default')

      const farm = async (maxPayment: bigint) => {
        const taskId = await gf.submitTask(own, await gf.defaultTaskParams(sourceId, { maxPayment }))
        await market.write.claimTask([taskId], { account: farmer.account })
        await market.write.submitResult(
          [taskId, sealOf(taskId, keccak256(toHex(`farm ${taskId}`))), 'bafyresult', 'bafyreceipt', 1],
          {
            account: farmer.account,
          },
        )
      }
      for (let i = 0; i < 5; i++) await farm(1n)
      const record = await providers.read.getReputation([farmer.account.address])
      assert.equal(record.completed, 0, 'paid, but not counted')
      const gated = await gf.submitTask(
        gf.clients[0]!,
        await gf.defaultTaskParams(sourceId, { minCompleted: 5, minSuccessBps: 10_000 }),
      )
      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.claimTask([gated], { account: farmer.account }),
        providers,
        'ProviderRegistryReputationTooLow',
        [farmer.account.address, 0, 0],
      )
      // Five completions worth the minimum count: the record then cost at least 5 × the fee on minRecordPayment.
      const feesBefore = await market.read.treasuryAccrued()
      for (let i = 0; i < 5; i++) await farm(minRecord)
      assert.equal((await providers.read.getReputation([farmer.account.address])).completed, 5)
      assert.ok((await market.read.treasuryAccrued()) > feesBefore, 'the record paid protocol fees')
      await market.write.claimTask([gated], { account: farmer.account })
      await gf.checkInvariants()
    })

    it('setMinRecordPayment is owner only and bounded', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const max = await providers.read.MAX_MIN_PROVIDER_STAKE()
      await viem.assertions.emitWithArgs(
        providers.write.setMinRecordPayment([grid(1)]),
        providers,
        'MinRecordPaymentUpdated',
        [grid(1)],
      )
      assert.equal(await providers.read.minRecordPayment(), grid(1))
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.setMinRecordPayment([max + 1n]),
        providers,
        'ProviderRegistryMinRecordPaymentOutOfBounds',
        [max + 1n, max],
      )
      await assert.rejects(
        providers.write.setMinRecordPayment([0n], { account: gf.providerWallets[0]!.account }),
        /OwnableUnauthorizedAccount/,
      )
    })
  })

  describe('owner', () => {
    it('setMinProviderStake accepts up to MAX_MIN_PROVIDER_STAKE and applies to later registrations', async () => {
      const gf = await networkHelpers.loadFixture(deployGridforge)
      const { providers } = gf
      const max = await providers.read.MAX_MIN_PROVIDER_STAKE()
      await viem.assertions.emitWithArgs(
        providers.write.setMinProviderStake([max]),
        providers,
        'MinProviderStakeUpdated',
        [max],
      )
      assert.equal(await providers.read.minProviderStake(), max)
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.setMinProviderStake([max + 1n]),
        providers,
        'ProviderRegistryMinStakeOutOfBounds',
        [max + 1n, max],
      )

      await providers.write.setMinProviderStake([grid(500)])
      const alice = gf.providerWallets[0]!
      await stake(gf, alice, grid(400))
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.register([DEFAULT_CAPABILITIES, DEFAULT_PROFILE_CID], { account: alice.account }),
        providers,
        'ProviderRegistryInsufficientStake',
        [alice.account.address, grid(400), grid(500)],
      )
      await viem.assertions.emitWithArgs(
        providers.write.setMinProviderStake([0n]),
        providers,
        'MinProviderStakeUpdated',
        [0n],
      )
      await providers.write.register([DEFAULT_CAPABILITIES, DEFAULT_PROFILE_CID], { account: alice.account })
    })

    it('setters are owner only', async () => {
      const { providers, others } = await networkHelpers.loadFixture(deployGridforge)
      const account = others[0]!.account
      const calls = [() => providers.write.setMinProviderStake([0n], { account })]
      for (const call of calls) {
        await viem.assertions.revertWithCustomErrorWithArgs(call(), providers, 'OwnableUnauthorizedAccount', [
          account.address,
        ])
      }
    })

    it('transfers ownership in two steps', async () => {
      const { providers, owner, others } = await networkHelpers.loadFixture(deployGridforge)
      const next = others[0]!
      await viem.assertions.emitWithArgs(
        providers.write.transferOwnership([next.account.address]),
        providers,
        'OwnershipTransferStarted',
        [owner.account.address, next.account.address],
      )
      assertAddress(await providers.read.pendingOwner(), next)
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.acceptOwnership({ account: others[1]!.account }),
        providers,
        'OwnableUnauthorizedAccount',
        [others[1]!.account.address],
      )
      await viem.assertions.emitWithArgs(
        providers.write.acceptOwnership({ account: next.account }),
        providers,
        'OwnershipTransferred',
        [owner.account.address, next.account.address],
      )
      assertAddress(await providers.read.owner(), next)
      await viem.assertions.revertWithCustomErrorWithArgs(
        providers.write.setMinProviderStake([0n]),
        providers,
        'OwnableUnauthorizedAccount',
        [owner.account.address],
      )
      await providers.write.setMinProviderStake([0n], { account: next.account })
    })
  })
})
