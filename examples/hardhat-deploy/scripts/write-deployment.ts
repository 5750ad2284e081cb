/**
 * Writes an Ignition deployment of Gridforge as a Gridforge deployment JSON,
 * `deployments/<deployment id>.json`:
 *
 *   { "chainId", "module", "blockNumber", "contracts": { token, sources, staking, providers, market, leases, timelock? },
 *     "token": { "symbol", "decimals" } }
 *
 * the file `gridforge --deployment`, the provider config's `[chain] deployment` and the SDK's
 * `deployment` parameter take. Run it after `hardhat ignition deploy`, on the same network:
 *
 *   pnpm hardhat run --no-compile scripts/write-deployment.ts --network custom
 *
 * It reads ignition/deployments/<deployment id>/ (default id `chain-<chainId>`, as Ignition's; set
 * GRIDFORGE_DEPLOYMENT_ID when you deployed with `--deployment-id`).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import type { GridforgeContracts, GridforgeDeployment } from '@gridforge/contracts'
import { gridforgeModule, localGridforgeModule } from '@gridforge/contracts/ignition'
import { HardhatArtifactResolver } from '@nomicfoundation/hardhat-ignition/helpers'
import { listTransactions, status } from '@nomicfoundation/ignition-core'
import hre from 'hardhat'
import { erc20Abi, getAddress, type Hex, isAddressEqual, parseAbi, zeroAddress } from 'viem'

const { viem } = await hre.network.getOrCreate()
const client = await viem.getPublicClient()
const chainId = await client.getChainId()
const deploymentId = process.env.GRIDFORGE_DEPLOYMENT_ID ?? `chain-${chainId}`
const deploymentDir = path.join(hre.config.paths.ignition, 'deployments', deploymentId)

const deployed = await status(deploymentDir)
if (deployed.chainId !== chainId)
  throw new Error(`${deploymentDir} is a deployment on chain ${deployed.chainId}, not ${chainId}`)
const unfinished = [...deployed.started, ...deployed.timedOut, ...deployed.held, ...deployed.failed]
if (unfinished.length > 0)
  throw new Error(`the deployment is not finished (${unfinished.join(', ')}): run the deploy command again`)

// Which module was deployed, and the address of each of its results (token, market, …).
const module = [localGridforgeModule, gridforgeModule].find((candidate) =>
  Object.values(candidate.results).every((future) => deployed.contracts[future.id] !== undefined),
)
if (module === undefined) throw new Error(`${deploymentDir} holds no LocalGridforge or Gridforge deployment`)
const contracts = Object.fromEntries(
  Object.entries(module.results).map(([name, future]) => [
    name,
    getAddress(deployed.contracts[future.id]?.address ?? zeroAddress),
  ]),
) as unknown as GridforgeContracts

// Where readers start looking for events: the block of the first contract this deployment created.
const transactions = await listTransactions(deploymentDir, new HardhatArtifactResolver(hre.artifacts))
const blocks = await Promise.all(
  transactions
    .filter((tx) => tx.type === 'DEPLOYMENT_EXECUTION_STATE' && tx.status === 'SUCCESS')
    .map(async (tx) => Number((await client.getTransactionReceipt({ hash: tx.txHash as Hex })).blockNumber)),
)
const blockNumber = Math.min(...blocks)

// The governed module hands every contract to the timelock: check that it took them.
const { timelock } = contracts
if (timelock !== undefined) {
  const ownable = parseAbi([
    'function owner() view returns (address)',
    'function pendingOwner() view returns (address)',
  ])
  for (const address of [contracts.staking, contracts.providers, contracts.market, contracts.leases]) {
    const [owner, pending] = await Promise.all([
      client.readContract({ address, abi: ownable, functionName: 'owner' }),
      client.readContract({ address, abi: ownable, functionName: 'pendingOwner' }),
    ])
    if (!isAddressEqual(owner, timelock) || !isAddressEqual(pending, zeroAddress))
      throw new Error(`${address} is owned by ${owner} (pending ${pending}), not the timelock ${timelock}`)
  }
}

const [symbol, decimals] = await Promise.all([
  client.readContract({ address: contracts.token, abi: erc20Abi, functionName: 'symbol' }),
  client.readContract({ address: contracts.token, abi: erc20Abi, functionName: 'decimals' }),
])
const record: GridforgeDeployment & { token: { symbol: string; decimals: number } } = {
  chainId,
  module: module.id,
  blockNumber,
  contracts,
  token: { symbol, decimals },
}
const file = path.join(hre.config.paths.root, 'deployments', `${deploymentId}.json`)
await mkdir(path.dirname(file), { recursive: true })
await writeFile(file, `${JSON.stringify(record, null, 2)}\n`)
console.log(`${module.id} on chain ${chainId}: wrote ${path.relative(process.cwd(), file)}`)
console.log(JSON.stringify(record, null, 2))
