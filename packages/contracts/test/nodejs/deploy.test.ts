import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { describe, it } from 'node:test'
import { network } from 'hardhat'
import { encodeFunctionData, isAddressEqual, zeroAddress, zeroHash } from 'viem'
import Gridforge from '../../ignition/modules/Gridforge.js'
import LocalGridforge from '../../ignition/modules/LocalGridforge.js'
import {
  type DeploymentRecord,
  deployGridforgeModule,
  deploymentFilePath,
  verifyGovernedDeployment,
} from '../../scripts/deploy.js'

/** The default unbonding period (7 days): a governed deployment's delay may not be shorter. */
const MIN_DELAY = 7n * 24n * 60n * 60n

/** A fresh in-process chain per test, so that addresses only depend on account 0's nonces. */
async function freshChain() {
  const connection = await network.create()
  const [deployer, proposer, executor, treasury, stranger] = await connection.viem.getWalletClients()
  assert.ok(deployer && proposer && executor && treasury && stranger, 'the tests need 5 accounts')
  return { connection, deployer, proposer, executor, treasury, stranger }
}

/** A GridToken as the asset, then the governed module around it. */
async function deployGoverned() {
  const chain = await freshChain()
  const { connection, deployer, proposer, executor, treasury } = chain
  const asset = await connection.viem.deployContract('GridToken', [deployer.account.address, 10n ** 27n])
  const parameters = {
    Gridforge: {
      asset: asset.address,
      treasury: treasury.account.address,
      timelockMinDelay: MIN_DELAY,
      timelockProposers: [proposer.account.address],
      timelockExecutors: [executor.account.address],
    },
  }
  const contracts = await connection.ignition.deploy(Gridforge, { parameters })
  return { ...chain, asset, parameters, ...contracts }
}

describe('deployment', () => {
  describe('LocalGridforge', () => {
    it('deploys the system wired together and owned by the deployer', async () => {
      const { connection, deployer } = await freshChain()
      const { token, sources, staking, providers, market, leases } =
        await connection.ignition.deploy(LocalGridforge)
      // Staking and ProviderRegistry are created by the market's constructor, with it as their immutable market
      assert.ok(isAddressEqual(await staking.read.market(), market.address))
      assert.ok(isAddressEqual(await providers.read.market(), market.address))
      assert.ok(isAddressEqual(await staking.read.leaseMarket(), leases.address))
      assert.ok(isAddressEqual(await leases.read.taskMarket(), market.address))
      for (const contract of [staking, providers, market, leases]) {
        assert.ok(isAddressEqual(await contract.read.owner(), deployer.account.address))
        assert.equal(await contract.read.pendingOwner(), zeroAddress)
      }
      assert.ok(isAddressEqual(await market.read.asset(), token.address))
      assert.ok(isAddressEqual(await market.read.sources(), sources.address))
      assert.ok(isAddressEqual(await market.read.providers(), providers.address))
      assert.ok(isAddressEqual(await market.read.staking(), staking.address))
      assert.ok(isAddressEqual(await market.read.treasury(), deployer.account.address))
      assert.ok(isAddressEqual(await staking.read.asset(), token.address))
      assert.equal(await token.read.balanceOf([deployer.account.address]), await token.read.totalSupply())
      const params = await market.read.params()
      assert.deepEqual(params, {
        protocolFeeBps: 500,
        stakerShareBps: 1_200,
        collateralBps: 5_000,
        slashToClientBps: 5_000,
        revealWindow: 600,
        claimGrace: 300,
        minCollateral: 0n,
        auditBps: 1_000,
        auditJoinWindow: 120,
      })
      // the audits module the market runs audits with (delegatecall) is deployed code
      const audits = await market.read.auditsModule()
      assert.ok(!isAddressEqual(audits, zeroAddress))
      const publicClient = await connection.viem.getPublicClient()
      assert.ok(((await publicClient.getCode({ address: audits })) ?? '0x').length > 2, 'TaskAudits has code')
      assert.equal(await staking.read.unbondingPeriod(), 7 * 24 * 60 * 60)
      assert.equal(await providers.read.minProviderStake(), 100n * 10n ** 18n)
    })

    it('matches the committed deployments/31337.json', async () => {
      const { connection } = await freshChain()
      const record = await deployGridforgeModule(connection, { module: 'local' })
      const committed = JSON.parse(await readFile(deploymentFilePath(31337), 'utf8')) as DeploymentRecord
      assert.deepEqual(
        record,
        committed,
        'deployments/31337.json is stale: run `pnpm --filter @gridforge/contracts run deploy --network localhost --reset` on a fresh node',
      )
    })
  })

  describe('Gridforge (timelock-governed)', () => {
    it('hands every owned contract to the timelock, with the configured delay', async () => {
      const { asset, staking, providers, market, leases, timelock, token, treasury } = await deployGoverned()
      assert.ok(isAddressEqual(token.address, asset.address))
      assert.ok(isAddressEqual(await market.read.asset(), asset.address))
      assert.ok(isAddressEqual(await market.read.treasury(), treasury.account.address))
      assert.ok(isAddressEqual(await staking.read.market(), market.address))
      assert.ok(isAddressEqual(await providers.read.market(), market.address))
      assert.ok(isAddressEqual(await staking.read.leaseMarket(), leases.address))
      assert.ok(isAddressEqual(await leases.read.taskMarket(), market.address))
      for (const contract of [staking, providers, market, leases]) {
        assert.ok(isAddressEqual(await contract.read.owner(), timelock.address))
        assert.equal(await contract.read.pendingOwner(), zeroAddress)
      }
      assert.equal(await timelock.read.getMinDelay(), MIN_DELAY)
    })

    it('leaves the deployer without any role, and the configured accounts with theirs', async () => {
      const { timelock, deployer, proposer, executor } = await deployGoverned()
      const [admin, proposerRole, executorRole, cancellerRole] = await Promise.all([
        timelock.read.DEFAULT_ADMIN_ROLE(),
        timelock.read.PROPOSER_ROLE(),
        timelock.read.EXECUTOR_ROLE(),
        timelock.read.CANCELLER_ROLE(),
      ])
      for (const role of [admin, proposerRole, executorRole, cancellerRole]) {
        assert.equal(await timelock.read.hasRole([role, deployer.account.address]), false)
      }
      assert.ok(await timelock.read.hasRole([proposerRole, proposer.account.address]))
      assert.ok(await timelock.read.hasRole([cancellerRole, proposer.account.address]))
      assert.ok(await timelock.read.hasRole([executorRole, executor.account.address]))
      // Only the timelock administers roles now.
      assert.ok(await timelock.read.hasRole([admin, timelock.address]))
      assert.equal(await timelock.read.hasRole([admin, proposer.account.address]), false)
    })

    it('changes parameters only through the timelock, after the delay', async () => {
      const { connection, market, timelock, deployer, proposer, executor, stranger } = await deployGoverned()
      const { viem, networkHelpers } = connection
      const newTreasury = stranger.account.address

      await viem.assertions.revertWithCustomErrorWithArgs(
        market.write.setTreasury([newTreasury], { account: deployer.account }),
        market,
        'OwnableUnauthorizedAccount',
        [deployer.account.address],
      )

      const data = encodeFunctionData({ abi: market.abi, functionName: 'setTreasury', args: [newTreasury] })
      const operation = [market.address, 0n, data, zeroHash, zeroHash] as const
      await viem.assertions.revertWithCustomError(
        timelock.write.schedule([...operation, MIN_DELAY - 1n], { account: proposer.account }),
        timelock,
        'TimelockInsufficientDelay',
      )
      await timelock.write.schedule([...operation, MIN_DELAY], { account: proposer.account })

      await viem.assertions.revertWithCustomError(
        timelock.write.execute([...operation], { account: executor.account }),
        timelock,
        'TimelockUnexpectedOperationState',
      )
      await networkHelpers.time.increase(MIN_DELAY)
      await viem.assertions.revertWithCustomError(
        timelock.write.execute([...operation], { account: stranger.account }),
        timelock,
        'AccessControlUnauthorizedAccount',
      )
      await timelock.write.execute([...operation], { account: executor.account })
      assert.ok(isAddressEqual(await market.read.treasury(), newTreasury))
    })

    it('is recorded and verified by the deploy script', async () => {
      const { connection, deployer, proposer, treasury } = await freshChain()
      const asset = await connection.viem.deployContract('GridToken', [deployer.account.address, 10n ** 27n])
      const parameters = {
        Gridforge: {
          asset: asset.address,
          treasury: treasury.account.address,
          timelockMinDelay: MIN_DELAY,
          timelockProposers: [proposer.account.address],
          timelockExecutors: [zeroAddress],
        },
      }
      const record = await deployGridforgeModule(connection, { module: 'governed', parameters })
      assert.equal(record.module, 'Gridforge')
      assert.equal(record.chainId, 31337)
      assert.ok(record.contracts.timelock !== undefined)
      assert.ok(isAddressEqual(record.contracts.token, asset.address))
      // The asset's deployment is block 1; the module's first transaction is in block 2.
      assert.equal(record.blockNumber, 2)
      await verifyGovernedDeployment(connection, record, { minDelay: MIN_DELAY })
      await assert.rejects(
        verifyGovernedDeployment(connection, record, { minDelay: MIN_DELAY + 1n }),
        /min delay/,
      )
      // Staking and ProviderRegistry must be the ones the market deployed.
      const { staking, providers } = record.contracts
      await assert.rejects(
        verifyGovernedDeployment(connection, {
          ...record,
          contracts: { ...record.contracts, staking: providers },
        }),
        /not the ones market/,
      )
      await assert.rejects(
        verifyGovernedDeployment(connection, {
          ...record,
          contracts: { ...record.contracts, providers: staking },
        }),
        /not the ones market/,
      )
      // And Staking must name the lease market built on that market.
      await assert.rejects(
        verifyGovernedDeployment(connection, {
          ...record,
          contracts: { ...record.contracts, leases: staking },
        }),
        /lease market/,
      )
    })

    it('refuses an asset without code and the deployer as proposer', async () => {
      const { connection, deployer, proposer, treasury } = await freshChain()
      const asset = await connection.viem.deployContract('GridToken', [deployer.account.address, 10n ** 27n])
      const base = {
        asset: asset.address,
        treasury: treasury.account.address,
        timelockMinDelay: MIN_DELAY,
        timelockProposers: [proposer.account.address],
        timelockExecutors: [zeroAddress],
      }
      await assert.rejects(
        deployGridforgeModule(connection, {
          module: 'governed',
          parameters: { Gridforge: { ...base, asset: treasury.account.address } },
        }),
        /has no code/,
      )
      await assert.rejects(
        deployGridforgeModule(connection, {
          module: 'governed',
          parameters: { Gridforge: { ...base, timelockProposers: [deployer.account.address] } },
        }),
        /must not include the deployer/,
      )
    })

    it('refuses a timelock delay shorter than the unbonding period', async () => {
      const { connection, deployer, proposer, treasury } = await freshChain()
      const asset = await connection.viem.deployContract('GridToken', [deployer.account.address, 10n ** 27n])
      const base = {
        asset: asset.address,
        treasury: treasury.account.address,
        timelockProposers: [proposer.account.address],
        timelockExecutors: [zeroAddress],
      }
      for (const [timelockMinDelay, unbondingPeriod] of [
        [0n, undefined], // the default unbonding period: 7 days
        [MIN_DELAY - 1n, undefined],
        [3_600n, 3_601n],
      ] as const) {
        await assert.rejects(
          deployGridforgeModule(connection, {
            module: 'governed',
            parameters: {
              Gridforge: { ...base, timelockMinDelay, ...(unbondingPeriod && { unbondingPeriod }) },
            },
          }),
          /timelockMinDelay .* is shorter than the unbonding period/,
        )
      }
      // Nothing was deployed: the refusal comes before the first transaction.
      assert.equal(await (await connection.viem.getPublicClient()).getBlockNumber(), 1n)
      const record = await deployGridforgeModule(connection, {
        module: 'governed',
        parameters: { Gridforge: { ...base, timelockMinDelay: 3_600n, unbondingPeriod: 3_600n } },
      })
      await verifyGovernedDeployment(connection, record, { minDelay: 3_600n })
    })
  })
})
