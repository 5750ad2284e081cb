import { DeploymentNotFoundError, type GridforgeDeployment, getDeployment } from '@gridforge/contracts'
import type { Deployment, IndexerClient } from '@gridforge/sdk'
import type { Config } from '@wagmi/core'
import { getConnectorClient } from '@wagmi/core'
import { hashFn } from '@wagmi/core/query'
import type { Account, Address, Chain, Client, Transport } from 'viem'

/** Which chain, and which Gridforge deployment on it, a query or mutation talks to. */
export interface ChainParameters {
  /** The chain (default: the config's current chain). */
  chainId?: number | undefined
  /**
   * Where Gridforge lives on that chain (default: the chain's known deployment
   * from `@gridforge/contracts`, `getDeployment(chainId)`). Pass it for your own deployment.
   */
  deployment?: Deployment | undefined
}

/**
 * What a chain of the config may say about Gridforge, in its `custom` field:
 * the indexer that list and statistics queries read (`listSources`,
 * `listTasks`, `listLeases`, `getNetworkStats`), unless their `indexer` parameter names
 * another. Without one they read the chain's logs.
 *
 * @example
 * import { defineChain } from 'viem'
 * import { hardhat } from 'viem/chains'
 *
 * const chain = defineChain({
 *   ...hardhat,
 *   custom: { gridforge: { indexer: 'http://127.0.0.1:42069' } } satisfies GridforgeChainCustom,
 * })
 */
export interface GridforgeChainCustom {
  gridforge?: {
    /** The indexer's URL, or a `createIndexerClient` (with `onFallback`) from `@gridforge/sdk`. */
    indexer?: string | IndexerClient | undefined
  }
}

/** The indexer the config's chain `chainId` names (`custom.gridforge.indexer`), if any. */
export function chainIndexer(config: Config, chainId: number): string | IndexerClient | undefined {
  const chain = config.chains.find((candidate) => candidate.id === chainId)
  return (chain?.custom as GridforgeChainCustom | undefined)?.gridforge?.indexer
}

/** The query key prefix of every Gridforge query: `queryClient.invalidateQueries({ queryKey: [gridforgeQueryKeyPrefix] })` refetches them all. */
export const gridforgeQueryKeyPrefix = 'gridforge' as const

/** The chain and, when known, the deployment of a query. */
export interface ResolvedChain {
  chainId: number
  deployment: Deployment | undefined
}

/**
 * The chain a query runs on and its deployment, resolved when the options are
 * built (so the key names the market), without throwing: an unknown chain
 * fails in the query function, where TanStack reports it as the query's error.
 */
export function resolveChain(config: Config, parameters: ChainParameters): ResolvedChain {
  const chainId = parameters.chainId ?? config.state.chainId
  return { chainId, deployment: parameters.deployment ?? knownDeployment(chainId) }
}

function knownDeployment(chainId: number): GridforgeDeployment | undefined {
  try {
    return getDeployment(chainId)
  } catch (error) {
    if (error instanceof DeploymentNotFoundError) return undefined
    throw error
  }
}

/**
 * The deployment, or `DeploymentNotFoundError` (which names the known chains
 * and says to pass `deployment`, the parameter of the hooks and options).
 */
export function requireDeployment({ chainId, deployment }: ResolvedChain): Deployment {
  if (deployment !== undefined) return deployment
  try {
    return getDeployment(chainId)
  } catch (error) {
    // Its message ends with "pass your own addresses": here that is the `deployment` parameter.
    if (error instanceof DeploymentNotFoundError) {
      const message = error.message
      error.message = `${message} Pass them as \`deployment\` (\`{ contracts, blockNumber }\`) to the hook, or to the query or mutation options.`
      error.stack = error.stack?.replace(message, error.message)
    }
    throw error
  }
}

type AnyClient = Client<Transport, Chain | undefined, Account | undefined>

/** The config's public client for `chainId` (throws `ChainNotConfiguredError` for a chain the config lacks). */
export function readClient(config: Config, chainId: number): AnyClient {
  return config.getClient({ chainId }) as AnyClient
}

/** The connected wallet's client on `chainId` (throws `ConnectorNotConnectedError` when no wallet is connected). */
export async function walletClient(
  config: Config,
  { chainId, account }: { chainId: number; account?: Address | Account | undefined },
): Promise<AnyClient> {
  return (await getConnectorClient(config, {
    chainId,
    account: typeof account === 'object' ? account.address : account,
  })) as AnyClient
}

/**
 * A query key: the prefix, the query's name, then its parameters with
 * `undefined` values dropped (so `{ a: undefined }` and `{}` share a cache
 * entry) and the deployment reduced to its market address.
 */
export function queryKey<const name extends string, parameters extends Record<string, unknown>>(
  name: name,
  { chainId, deployment }: ResolvedChain,
  parameters: parameters,
) {
  const defined = Object.fromEntries(
    Object.entries(parameters)
      .filter(([, value]) => value !== undefined)
      // Task and lease ids are keyed as bigints, so `7` and `7n` share an entry and match
      // the ids (bigints) that events carry when a watcher invalidates a task or a lease.
      .map(([name, value]) => [name, name === 'taskId' || name === 'leaseId' ? asBigInt(value) : value]),
  )
  return [
    gridforgeQueryKeyPrefix,
    name,
    { chainId, market: deployment?.contracts.market, ...defined } as {
      chainId: number
      market: Address | undefined
    } & { [key in keyof parameters]: parameters[key] },
  ] as const
}

function asBigInt(value: unknown): unknown {
  if (typeof value !== 'number' && typeof value !== 'string') return value
  try {
    return BigInt(value)
  } catch {
    return value // not an id: the action's validation reports it
  }
}

/** Hashes keys with bigints in them (task ids) the way wagmi does. */
export const queryKeyHashFn = hashFn
