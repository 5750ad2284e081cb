/**
 * The indexer's settings, from the environment: which chain node, which
 * deployment, which database. Read by ponder.config.ts; pure, so that every
 * message is tested without starting Ponder.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { GridforgeDeployment } from '@gridforge/contracts'

/** What ponder.config.ts needs. */
export interface IndexerSettings {
  rpcUrl: string
  deployment: GridforgeDeployment
  /** Where the deployment came from (a path), for messages. */
  deploymentSource: string
  database: { kind: 'pglite'; directory: string } | { kind: 'postgres'; connectionString: string }
  /** How often the node is asked for new blocks, in ms. */
  pollingIntervalMs: number
  /** Local chains (Hardhat, anvil) are reset between runs: Ponder must not cache their RPC answers. */
  disableCache: boolean
  /**
   * Requests per second Ponder's adaptive rate limit starts from; undefined: Ponder's own start (20, rising
   * 5 % at a time while the node keeps up). A local node takes Ponder's most (500) from the start.
   */
  requestsPerSecond: number | undefined
}

/** A setting that cannot be used, named. */
export class IndexerSettingsError extends Error {
  override name = 'IndexerSettingsError' as const
  /** The environment variable at fault. */
  readonly variable: string

  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`)
    this.variable = variable
  }
}

/** Chain ids of local development chains (Hardhat, anvil, Ganache). */
const localChainIds = new Set([31337, 1337])
/**
 * A local node's requests per second. Ponder starts every node at 20 and rises slowly: the backfill of a
 * 100,000-task devnet fetched a block at a time at ~30 requests/s and waited most of its time.
 */
const localRequestsPerSecond = 500

const addressPattern = /^0x[0-9a-fA-F]{40}$/
const contractRoles = ['token', 'sources', 'staking', 'providers', 'market', 'leases'] as const

/** `GRIDFORGE_RPC_URL` (default `http://127.0.0.1:8545`). @throws {IndexerSettingsError} when not an http(s) URL. */
export function readRpcUrl(env: Record<string, string | undefined>): string {
  const rpcUrl = env.GRIDFORGE_RPC_URL?.trim() || 'http://127.0.0.1:8545'
  if (!/^https?:\/\/\S+$/.test(rpcUrl))
    throw new IndexerSettingsError(
      'GRIDFORGE_RPC_URL',
      `expected an http(s) URL, got ${JSON.stringify(rpcUrl)}`,
    )
  return rpcUrl
}

/**
 * Reads the settings:
 * - `GRIDFORGE_RPC_URL`: the chain node's HTTP JSON-RPC URL (default `http://127.0.0.1:8545`);
 * - `GRIDFORGE_DEPLOYMENT`: path to a deployment JSON as `@gridforge/contracts` writes them
 *   (default: the package's `deployments/31337.json`, a local devnet);
 * - `DATABASE_URL`: a PostgreSQL connection string; without it, PGlite (embedded) in
 *   `GRIDFORGE_PGLITE_DIR` (default `.ponder/pglite`);
 * - `GRIDFORGE_POLLING_INTERVAL_MS`: how often to ask for new blocks (default 1000);
 * - `GRIDFORGE_RPC_REQUESTS_PER_SECOND`: where Ponder's adaptive rate limit starts (default: Ponder's 20;
 *   500 for a local chain). Ponder lowers it whenever the node answers 429.
 *
 * @throws {IndexerSettingsError} naming the variable that cannot be used.
 */
export function readSettings(
  env: Record<string, string | undefined>,
  { defaultDeploymentPath }: { defaultDeploymentPath: string },
): IndexerSettings {
  const rpcUrl = readRpcUrl(env)

  const deploymentSource = env.GRIDFORGE_DEPLOYMENT?.trim() || defaultDeploymentPath
  const deployment = readDeployment(deploymentSource)

  const databaseUrl = env.DATABASE_URL?.trim()
  const database: IndexerSettings['database'] = databaseUrl
    ? { kind: 'postgres', connectionString: databaseUrl }
    : { kind: 'pglite', directory: env.GRIDFORGE_PGLITE_DIR?.trim() || path.join('.ponder', 'pglite') }

  const polling = env.GRIDFORGE_POLLING_INTERVAL_MS?.trim()
  const pollingIntervalMs = polling ? Number(polling) : 1_000
  if (!Number.isSafeInteger(pollingIntervalMs) || pollingIntervalMs < 50 || pollingIntervalMs > 600_000)
    throw new IndexerSettingsError(
      'GRIDFORGE_POLLING_INTERVAL_MS',
      `expected a whole number of milliseconds from 50 to 600000, got ${JSON.stringify(polling)}`,
    )

  const local = localChainIds.has(deployment.chainId)
  const rate = env.GRIDFORGE_RPC_REQUESTS_PER_SECOND?.trim()
  const requestsPerSecond = rate ? Number(rate) : local ? localRequestsPerSecond : undefined
  if (
    requestsPerSecond !== undefined &&
    (!Number.isSafeInteger(requestsPerSecond) || requestsPerSecond < 1 || requestsPerSecond > 10_000)
  )
    throw new IndexerSettingsError(
      'GRIDFORGE_RPC_REQUESTS_PER_SECOND',
      `expected a whole number of requests per second from 1 to 10000, got ${JSON.stringify(rate)}`,
    )

  return {
    rpcUrl,
    deployment,
    deploymentSource,
    database,
    pollingIntervalMs,
    disableCache: local,
    requestsPerSecond,
  }
}

/** Reads and checks a deployment JSON. */
function readDeployment(file: string): GridforgeDeployment {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new IndexerSettingsError(
      'GRIDFORGE_DEPLOYMENT',
      `cannot read the deployment ${file}: ${(error as Error).message}`,
    )
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new IndexerSettingsError('GRIDFORGE_DEPLOYMENT', `${file} is not JSON: ${(error as Error).message}`)
  }
  const problem = deploymentProblem(value)
  if (problem !== undefined)
    throw new IndexerSettingsError(
      'GRIDFORGE_DEPLOYMENT',
      `${file} is not a Gridforge deployment (as packages/contracts/deployments/*.json): ${problem}`,
    )
  return value as GridforgeDeployment
}

/** What is wrong with a parsed deployment JSON, or undefined. */
function deploymentProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'expected an object'
  const { chainId, blockNumber, contracts } = value as Record<string, unknown>
  if (!Number.isSafeInteger(chainId) || (chainId as number) <= 0)
    return '`chainId` must be a positive integer'
  if (!Number.isSafeInteger(blockNumber) || (blockNumber as number) < 0)
    return '`blockNumber` must be a block number (0 or more)'
  if (typeof contracts !== 'object' || contracts === null) return '`contracts` must be an object of addresses'
  for (const role of contractRoles) {
    const address = (contracts as Record<string, unknown>)[role]
    if (typeof address !== 'string' || !addressPattern.test(address))
      return `\`contracts.${role}\` must be an address`
  }
  return undefined
}
