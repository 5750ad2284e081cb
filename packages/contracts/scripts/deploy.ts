/**
 * Deploys Gridforge with Ignition and records the addresses in
 * `deployments/<chainId>.json` (the source of `deployments` in the package).
 *
 * Usage (from the repository root; `run` is needed because `pnpm deploy` is a
 * pnpm command of its own):
 *
 *   pnpm --filter @gridforge/contracts run deploy --network <name>
 *     [--module local|governed]   LocalGridforge (fresh GridToken, deployer owns everything)
 *                                 or Gridforge (any ERC-20, TimelockController owns everything).
 *                                 Default: local on chain 31337, required elsewhere.
 *     [--parameters <file.json>]  Ignition parameters, e.g. ignition/parameters/example-network.json.
 *     [--deployment-id <id>]      Ignition deployment id (default chain-<chainId>).
 *     [--reset]                   Forget the Ignition journal of this deployment id first
 *                                 (needed after restarting a local node).
 *     [--out <file.json>]         Write the record there instead of deployments/<chainId>.json
 *                                 (throwaway chains: tests, the demo).
 *
 * On networks other than Hardhat's in-process one, Ignition journals every step
 * in ignition/deployments/<deployment id>/, so an interrupted deployment resumes
 * where it stopped when the same command runs again.
 */
import { access, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import {
  HardhatArtifactResolver,
  readDeploymentParameters,
  resolveDeploymentId,
} from '@nomicfoundation/hardhat-ignition/helpers'
import { type DeploymentParameters, FutureType, listTransactions } from '@nomicfoundation/ignition-core'
import hre from 'hardhat'
import type { NetworkConnection } from 'hardhat/types/network'
import { type Address, getAddress, type Hex, isAddressEqual, zeroAddress } from 'viem'
import { defaultUnbondingPeriod } from '../ignition/modules/core.js'
import Gridforge from '../ignition/modules/Gridforge.js'
import LocalGridforge from '../ignition/modules/LocalGridforge.js'
import type { GridforgeDeployment } from '../src/index.js'

/** `--module` values and the Ignition modules they deploy. */
export const gridforgeModules = {
  local: LocalGridforge,
  governed: Gridforge,
} as const

export type GridforgeModuleName = keyof typeof gridforgeModules

/** The content of `deployments/<chainId>.json`: the same shape the package exports. */
export type DeploymentRecord = GridforgeDeployment

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** `deployments/<chainId>.json` in this package. */
export function deploymentFilePath(chainId: number): string {
  return path.join(packageRoot, 'deployments', `${chainId}.json`)
}

export interface DeployGridforgeOptions {
  /** `local` (LocalGridforge) or `governed` (Gridforge). */
  module: GridforgeModuleName
  /** Ignition parameters, or the path of a parameters JSON file. */
  parameters?: DeploymentParameters | string
  /** Ignition deployment id (default chain-<chainId>); ignored on in-process networks. */
  deploymentId?: string
  /** Deletes the Ignition journal of the deployment id before deploying. */
  reset?: boolean
  /** Shows Ignition's progress output. */
  displayUi?: boolean
}

/**
 * Deploys a Gridforge module on `connection` and returns what
 * `deployments/<chainId>.json` records. Governed deployments are verified
 * with {@link verifyGovernedDeployment} before this returns.
 */
export async function deployGridforgeModule(
  connection: NetworkConnection,
  { module, parameters = {}, deploymentId, reset = false, displayUi = false }: DeployGridforgeOptions,
): Promise<DeploymentRecord> {
  const ignitionModule = gridforgeModules[module]
  const publicClient = await connection.viem.getPublicClient()
  const chainId = await publicClient.getChainId()
  const resolvedParameters =
    typeof parameters === 'string' ? await readDeploymentParameters(parameters) : parameters
  // Hardhat's in-process network keeps no journal (see hardhat-ignition-viem's deploy).
  const persisted = connection.networkConfig.type !== 'edr-simulated'
  const resolvedDeploymentId = resolveDeploymentId(deploymentId, chainId)
  const deploymentDir = path.join(hre.config.paths.ignition, 'deployments', resolvedDeploymentId)
  if (reset && persisted) await rm(deploymentDir, { recursive: true, force: true })

  if (module === 'governed') await checkGovernedParameters(connection, resolvedParameters[Gridforge.id] ?? {})

  const blockBefore = await publicClient.getBlockNumber()
  const deployOptions = { parameters: resolvedParameters, deploymentId: resolvedDeploymentId, displayUi }
  const result =
    module === 'local'
      ? await connection.ignition.deploy(LocalGridforge, deployOptions)
      : await connection.ignition.deploy(Gridforge, deployOptions)
  const contracts = Object.fromEntries(
    Object.entries(result).map(([name, contract]) => [name, getAddress(contract.address)]),
  ) as unknown as DeploymentRecord['contracts']

  let blockNumber = Number(blockBefore) + 1
  if (persisted) {
    // A resumed deployment may have started long before this run: take the
    // block of the first contract creation in Ignition's journal.
    // Only contracts this module created (the governed module's asset already existed).
    const deployed = Object.entries(ignitionModule.results)
      .filter(([, future]) => future.type === FutureType.NAMED_ARTIFACT_CONTRACT_DEPLOYMENT)
      .map(([name]) => contracts[name as keyof DeploymentRecord['contracts']] as Address)
    const transactions = await listTransactions(deploymentDir, new HardhatArtifactResolver(hre.artifacts))
    const blocks = await Promise.all(
      transactions
        .filter(
          (tx) =>
            tx.type === 'DEPLOYMENT_EXECUTION_STATE' &&
            tx.status === 'SUCCESS' &&
            tx.address !== undefined &&
            deployed.some((address) => isAddressEqual(address, tx.address as Address)),
        )
        .map(async (tx) => {
          const receipt = await publicClient
            .getTransactionReceipt({ hash: tx.txHash as Hex })
            .catch((cause: unknown) => {
              throw new Error(
                `The Ignition journal in ${deploymentDir} names transaction ${tx.txHash}, which this chain does not have ` +
                  '(a restarted local node?). Run again with --reset to deploy from scratch.',
                { cause },
              )
            })
          return Number(receipt.blockNumber)
        }),
    )
    if (blocks.length > 0) blockNumber = Math.min(...blocks)
  }

  const record: DeploymentRecord = { chainId, module: ignitionModule.id, blockNumber, contracts }
  if (module === 'governed') {
    const minDelay = resolvedParameters[Gridforge.id]?.timelockMinDelay
    await verifyGovernedDeployment(connection, record, {
      minDelay: minDelay === undefined ? undefined : BigInt(minDelay as bigint | number | string),
    })
  }
  return record
}

/**
 * Refuses governed parameters that would deploy a broken system: an `asset`
 * without code (a typo, or an address on another chain), the deployer among
 * the timelock's proposers or executors (it gives up those roles at the end
 * of the bootstrap, which would leave the timelock without them), or a
 * timelock delay shorter than the unbonding period (a governance change could
 * then take effect before a staker who disagrees with it could leave).
 */
async function checkGovernedParameters(connection: NetworkConnection, parameters: Record<string, unknown>) {
  const delay = parameters.timelockMinDelay
  if (delay === undefined) throw new Error('Gridforge.timelockMinDelay is required: the delay in seconds')
  const unbonding = BigInt(
    (parameters.unbondingPeriod as bigint | number | string | undefined) ?? defaultUnbondingPeriod,
  )
  if (BigInt(delay as bigint | number | string) < unbonding) {
    throw new Error(
      `Gridforge.timelockMinDelay (${delay} s) is shorter than the unbonding period (${unbonding} s): a governance ` +
        `change would take effect before stakers could leave. Set timelockMinDelay to at least ${unbonding}.`,
    )
  }
  const publicClient = await connection.viem.getPublicClient()
  const asset = parameters.asset
  if (typeof asset !== 'string') throw new Error('Gridforge.asset is required: the ERC-20 address')
  const code = await publicClient.getCode({ address: getAddress(asset) })
  if (code === undefined || code === '0x')
    throw new Error(`Gridforge.asset ${asset} has no code on this chain`)
  const [deployer] = await connection.viem.getWalletClients()
  for (const list of ['timelockProposers', 'timelockExecutors'] as const) {
    const accounts = parameters[list]
    if (!Array.isArray(accounts)) throw new Error(`Gridforge.${list} is required: an array of addresses`)
    if (
      deployer !== undefined &&
      accounts.some((account) => isAddressEqual(account, deployer.account.address))
    ) {
      throw new Error(`Gridforge.${list} must not include the deployer ${deployer.account.address}`)
    }
  }
}

/**
 * Checks the end state of the timelock bootstrap (see ignition/modules/Gridforge.ts):
 * the recorded Staking and ProviderRegistry are the ones the market deployed (their
 * immutable `market` is the market), Staking names the lease market built on that market, every owned contract is owned by the timelock with no pending owner, the minimum
 * delay is `minDelay`, the deployer (account 0) holds no timelock role, and the
 * bootstrap batch is the only operation ever scheduled on the timelock.
 * Throws on the first difference.
 */
export async function verifyGovernedDeployment(
  connection: NetworkConnection,
  record: DeploymentRecord,
  { minDelay }: { minDelay?: bigint | undefined } = {},
): Promise<void> {
  const { viem } = connection
  const timelockAddress = record.contracts.timelock
  if (timelockAddress === undefined) throw new Error('verify: the deployment has no timelock')
  const [deployer] = await viem.getWalletClients()
  if (deployer === undefined) throw new Error('verify: the network has no account')
  const deployerAddress = deployer.account.address
  const timelock = await viem.getContractAt('TimelockController', timelockAddress)

  const staking = await viem.getContractAt('Staking', record.contracts.staking)
  const providers = await viem.getContractAt('ProviderRegistry', record.contracts.providers)
  const market = await viem.getContractAt('TaskMarket', record.contracts.market)
  const leases = await viem.getContractAt('LeaseMarket', record.contracts.leases)
  const [marketStaking, marketProviders, stakingMarket, providersMarket] = await Promise.all([
    market.read.staking(),
    market.read.providers(),
    staking.read.market(),
    providers.read.market(),
  ])
  if (
    !isAddressEqual(marketStaking, staking.address) ||
    !isAddressEqual(marketProviders, providers.address) ||
    !isAddressEqual(stakingMarket, market.address) ||
    !isAddressEqual(providersMarket, market.address)
  ) {
    throw new Error(
      `verify: staking ${staking.address} and providers ${providers.address} are not the ones market ${market.address} deployed`,
    )
  }
  const [stakingLeases, leasesMarket] = await Promise.all([
    staking.read.leaseMarket(),
    leases.read.taskMarket().catch(() => zeroAddress),
  ])
  if (!isAddressEqual(stakingLeases, leases.address) || !isAddressEqual(leasesMarket, market.address)) {
    throw new Error(
      `verify: staking names lease market ${stakingLeases}, not ${leases.address} built on ${market.address}`,
    )
  }

  const owned = [staking, providers, market, leases]
  for (const contract of owned) {
    const [owner, pendingOwner] = await Promise.all([contract.read.owner(), contract.read.pendingOwner()])
    if (!isAddressEqual(owner, timelockAddress) || !isAddressEqual(pendingOwner, zeroAddress)) {
      throw new Error(
        `verify: ${contract.address} is owned by ${owner} (pending ${pendingOwner}), not the timelock`,
      )
    }
  }

  const actualDelay = await timelock.read.getMinDelay()
  if (minDelay !== undefined && actualDelay !== minDelay) {
    throw new Error(`verify: timelock min delay is ${actualDelay}, expected ${minDelay}`)
  }

  const roles = await Promise.all([
    timelock.read.DEFAULT_ADMIN_ROLE(),
    timelock.read.PROPOSER_ROLE(),
    timelock.read.EXECUTOR_ROLE(),
    timelock.read.CANCELLER_ROLE(),
  ])
  for (const role of roles) {
    if (await timelock.read.hasRole([role, deployerAddress])) {
      throw new Error(`verify: the deployer ${deployerAddress} still holds timelock role ${role}`)
    }
  }

  const scheduled = await timelock.getEvents.CallScheduled(
    {},
    { fromBlock: BigInt(record.blockNumber), toBlock: 'latest' },
  )
  const ids = new Set(scheduled.map((log) => log.args.id))
  if (ids.size !== 1) {
    throw new Error(`verify: expected the bootstrap batch as the only scheduled operation, found ${ids.size}`)
  }
  const [bootstrapId] = ids
  if (bootstrapId === undefined || !(await timelock.read.isOperationDone([bootstrapId]))) {
    throw new Error('verify: the bootstrap batch was not executed')
  }
}

/** Writes `deployments/<chainId>.json` (or `file`) and returns its path. */
export async function writeDeploymentRecord(
  record: DeploymentRecord,
  file: string = deploymentFilePath(record.chainId),
): Promise<string> {
  await writeFile(file, `${JSON.stringify(record, null, 2)}\n`)
  return file
}

/**
 * Resolves a path given on the command line: relative to the directory the
 * command was typed in (`pnpm --filter` runs scripts in the package directory
 * and passes the original one as INIT_CWD), else relative to this package.
 */
async function resolveUserPath(file: string): Promise<string> {
  const fromInvocation = path.resolve(process.env.INIT_CWD ?? process.cwd(), file)
  if (
    await access(fromInvocation).then(
      () => true,
      () => false,
    )
  )
    return fromInvocation
  return path.resolve(packageRoot, file)
}

const usage =
  'usage: pnpm --filter @gridforge/contracts run deploy --network <name> [--module local|governed] ' +
  '[--parameters <file.json>] [--deployment-id <id>] [--reset] [--out <file.json>]'

async function main() {
  const { values } = parseArgs({
    // `pnpm run deploy -- --network x` passes the `--` through.
    args: process.argv.slice(2).filter((arg, index) => !(index === 0 && arg === '--')),
    options: {
      network: { type: 'string' },
      module: { type: 'string' },
      parameters: { type: 'string' },
      'deployment-id': { type: 'string' },
      reset: { type: 'boolean', default: false },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  })
  if (values.help) {
    console.log(usage)
    return
  }
  if (values.network === undefined) throw new Error(`--network is required\n${usage}`)
  if (values.module !== undefined && !(values.module in gridforgeModules)) {
    throw new Error(`--module must be local or governed, got ${values.module}\n${usage}`)
  }

  const connection = await hre.network.create(values.network)
  try {
    const chainId = await (await connection.viem.getPublicClient()).getChainId()
    const module = (values.module ?? (chainId === 31337 ? 'local' : undefined)) as
      | GridforgeModuleName
      | undefined
    if (module === undefined) {
      throw new Error(
        `chain ${chainId} is not a local chain: pass --module governed (or local for a test network)`,
      )
    }
    const record = await deployGridforgeModule(connection, {
      module,
      ...(values.parameters === undefined ? {} : { parameters: await resolveUserPath(values.parameters) }),
      ...(values['deployment-id'] === undefined ? {} : { deploymentId: values['deployment-id'] }),
      reset: values.reset,
      displayUi: true,
    })
    const file = await writeDeploymentRecord(
      record,
      values.out === undefined ? undefined : path.resolve(process.env.INIT_CWD ?? process.cwd(), values.out),
    )
    console.log(
      `\n${record.module} deployed on chain ${chainId}; wrote ${path.relative(process.cwd(), file)}:`,
    )
    console.log(JSON.stringify(record, null, 2))
  } finally {
    await connection.close()
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error)
    process.exitCode = 1
  })
}
