import { localAccount } from '@gridforge/react-hooks'
import { kuboStore } from '@gridforge/sdk/storage'
import { type Chain, defineChain, type Hex } from 'viem'
import { hardhat } from 'viem/chains'
import { createConfig, http, injected } from 'wagmi'

const env = import.meta.env

/** Hardhat's account #1: the development client of the local network (never use it elsewhere). */
const hardhatAccount1: Hex = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

/** JSON-RPC URL of the chain. */
export const rpcUrl = env.VITE_GRIDFORGE_RPC_URL || 'http://127.0.0.1:8545'

/** Kubo RPC URL of the content store that task inputs are uploaded to and receipts and logs are read from. */
export const storeUrl = env.VITE_GRIDFORGE_STORE_URL || 'http://127.0.0.1:5050'

/**
 * A Gridforge indexer (`pnpm indexer`) that the task list, sources and network stats read instead
 * of the chain's logs; they read the chain when it cannot answer.
 */
const indexerUrl = env.VITE_GRIDFORGE_INDEXER_URL || undefined

const chainId = parseChainId(env.VITE_GRIDFORGE_CHAIN_ID || '31337')

/** Whether this is the local Hardhat chain (fast polling, a development account by default). */
export const isLocalChain = chainId === hardhat.id

/** The chain the dashboard reads and writes, on the configured RPC URL (and its indexer, if any). */
export const chain: Chain = {
  ...(chainId === hardhat.id
    ? { ...hardhat, name: env.VITE_GRIDFORGE_CHAIN_NAME || hardhat.name, rpcUrls: rpcUrls(rpcUrl) }
    : defineChain({
        id: chainId,
        name: env.VITE_GRIDFORGE_CHAIN_NAME || `Chain ${chainId}`,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: rpcUrls(rpcUrl),
      })),
  // `GridforgeChainCustom` of @gridforge/react-hooks/query: the hooks read the indexer it names.
  ...(indexerUrl === undefined ? {} : { custom: { gridforge: { indexer: indexerUrl } } }),
}

/** The development account's key: configured, or Hardhat's account #1 on the local chain; none elsewhere. */
const devPrivateKey = (env.VITE_GRIDFORGE_DEV_PRIVATE_KEY || (isLocalChain ? hardhatAccount1 : undefined)) as
  | Hex
  | undefined

/** Where task inputs are uploaded and receipts, logs and outputs are read (every read is verified against its CID). */
export const contentStore = kuboStore({ url: storeUrl })

export const config = createConfig({
  chains: [chain],
  connectors: [
    ...(devPrivateKey === undefined ? [] : [localAccount({ privateKey: devPrivateKey })]),
    injected(),
  ],
  transports: { [chain.id]: http(rpcUrl) },
  // Blocks come every few hundred milliseconds on the local chain; slower chains need no more than every 4 s.
  pollingInterval: isLocalChain ? 500 : 4_000,
  // Only the `injected()` connector: no EIP-6963 discovery of every installed wallet.
  multiInjectedProviderDiscovery: false,
})

declare module 'wagmi' {
  interface Register {
    config: typeof config
  }
}

function rpcUrls(url: string) {
  return { default: { http: [url] } } as const
}

function parseChainId(value: string): number {
  const id = Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) {
    throw new Error(`VITE_GRIDFORGE_CHAIN_ID must be a chain id (a whole number above 0), got '${value}'`)
  }
  return id
}
