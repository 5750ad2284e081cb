import { createRequire } from 'node:module'
import path from 'node:path'
import {
  leaseMarketAbi,
  providerRegistryAbi,
  sourceRegistryAbi,
  stakingAbi,
  taskMarketAbi,
} from '@gridforge/contracts'
import { createConfig } from 'ponder'
import { readSettings } from './src/environment.js'

// The deployment a local devnet gets (`pnpm --filter @gridforge/contracts exec tsx scripts/devnet.ts`).
const contractsRoot = path.dirname(
  createRequire(import.meta.url).resolve('@gridforge/contracts/package.json'),
)
const settings = readSettings(process.env, {
  defaultDeploymentPath: path.join(contractsRoot, 'deployments', '31337.json'),
})
const { contracts, blockNumber: startBlock, chainId } = settings.deployment

export default createConfig({
  database: settings.database,
  chains: {
    gridforge: {
      id: chainId,
      rpc: settings.rpcUrl,
      pollingInterval: settings.pollingIntervalMs,
      disableCache: settings.disableCache,
      // Honoured through patches/ponder@0.17.7.patch: where the adaptive rate limit starts.
      maxRequestsPerSecond: settings.requestsPerSecond,
    },
  },
  contracts: {
    TaskMarket: { chain: 'gridforge', abi: taskMarketAbi, address: contracts.market, startBlock },
    SourceRegistry: { chain: 'gridforge', abi: sourceRegistryAbi, address: contracts.sources, startBlock },
    ProviderRegistry: {
      chain: 'gridforge',
      abi: providerRegistryAbi,
      address: contracts.providers,
      startBlock,
    },
    Staking: { chain: 'gridforge', abi: stakingAbi, address: contracts.staking, startBlock },
    LeaseMarket: { chain: 'gridforge', abi: leaseMarketAbi, address: contracts.leases, startBlock },
  },
})
