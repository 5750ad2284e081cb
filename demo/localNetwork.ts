/**
 * A whole Gridforge network on this machine, the one bootstrap of `pnpm network` (network.ts), the
 * dashboard's `pnpm dev` and end-to-end test, the examples' smoke tests and `pnpm demo` (main.ts):
 * a Hardhat devnet with the contracts deployed, mining a block a second, and audits' joining window
 * set to 1 minute (localChain.ts), a content store served as Kubo's RPC
 * subset and a trustless gateway (storeServer.ts), the word-count and SHA-256 sources
 * (localSources.ts), provider agents (one by default; Hardhat accounts #2, #3, …) registered with
 * this host's provider profile (localProviders.ts) and running tasks in Docker containers, and the
 * development client account (#1) funded with GRID.
 *
 * @example
 * await using network = await startLocalNetwork()
 * network.rpcUrl // 'http://127.0.0.1:41234'
 * network.storeUrl // 'http://127.0.0.1:41235'
 * network.sourceIds.wordCount // 1
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { getDeployment, sourceRegistryAbi } from '@gridforge/contracts'
import {
  type Agent,
  type ContainerRuntime,
  detectHost,
  dockerRuntime,
  type Logger,
  processRuntime,
  startAgent,
} from '@gridforge/provider-kit'
import { type Deployment, setParams, subscribeSources } from '@gridforge/sdk'
import type { ContentStore } from '@gridforge/sdk/storage'
import type { Hex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { startIndexer } from '../packages/indexer/launch/indexerProcess.js'
import { buildDemoImage } from './image.js'
import { type LocalWallet, startLocalChain } from './localChain.js'
import { registerLocalProvider, storeLocalProfile } from './localProviders.js'
import { type LocalSourceIds, publishLocalSources } from './localSources.js'
import { startStoreServer } from './storeServer.js'

export type { LocalWallet } from './localChain.js'
export type { LocalSourceIds } from './localSources.js'

/** The steps of `startLocalNetwork`, in order. */
export type LocalNetworkStepId =
  | 'chain'
  | 'funding'
  | 'image'
  | 'sources'
  | 'providers'
  | 'agents'
  | 'indexer'

export interface StartLocalNetworkParameters {
  /** Port of the chain's JSON-RPC (default: a free port). */
  port?: number | undefined
  /** Port of the store's server (default: a free port). */
  storePort?: number | undefined
  /**
   * Progress: each step's title (unless `onStep` takes them), the details of each step indented
   * by two spaces, and the agents' key events (default: `console.log`).
   */
  log?: ((line: string) => void) | undefined
  /** Takes each step's title as it starts, instead of `log` (`pnpm demo` numbers them). */
  onStep?: ((step: { id: LocalNetworkStepId; title: string }) => void) | undefined
  /** Warnings (default: stderr in yellow, and `log` when one is given). */
  warn?: ((message: string) => void) | undefined
  /** Milliseconds between the agents' polls for new events, and the wallets' (default 200). */
  pollingInterval?: number | undefined
  /** How many provider agents run, each its own account, stake and journal (default 1). */
  providers?: number | undefined
  /**
   * The first provider's key (default: Hardhat account #2). Agents remove the task containers of
   * their own account that their journal does not know, and every devnet has the same market
   * address: give a fresh key (`generatePrivateKey()`) to a network that may run beside another
   * one on the same Docker engine (tests), so that neither agent removes the other's containers.
   */
  providerPrivateKey?: Hex | undefined
  /** The logger of each provider's agent (default: its key events as `log` lines). */
  agentLogger?: ((provider: { index: number; address: Hex }) => Logger) | undefined
  /**
   * Also start the indexer (`@gridforge/indexer`: Ponder on PGlite in the network's folder) and its REST
   * API, at `indexerUrl`: a few seconds more. `pnpm network`, `pnpm dashboard` and `pnpm demo` do
   * (default: false).
   */
  indexer?: boolean | undefined
}

/** One provider of the local network. */
export interface LocalProvider {
  address: Hex
  /** Its agent: stopped by `network.stop()`, or earlier by `agent.stop()`. */
  agent: Agent
}

export interface LocalNetwork extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string
  chainId: 31337
  /** The store's URL: Kubo RPC (`kuboStore({ url: storeUrl })`) and trustless gateway (`gatewayReader`). */
  storeUrl: string
  /** The store itself (the `fsStore` the server and the agents share). */
  store: ContentStore
  deployment: Deployment
  /** Hardhat account #1: the development client, funded with 1000 GRID. */
  devPrivateKey: Hex
  /** The first provider's account (Hardhat account #2 unless another key was given). */
  providerAddress: Hex
  providers: readonly LocalProvider[]
  /** The CID of the providers' profile (the provider kit's format, this host benchmarked). */
  profile: string
  sourceIds: LocalSourceIds
  /**
   * The local image (`gridforge-demo/wordcount@sha256:…`, a static busybox): sources published with
   * it are joined by the local providers within a poll or two.
   */
  image: string
  /** How the agents run tasks: Docker containers, or (no engine answered) unisolated host processes. */
  runtime: 'docker' | 'process'
  /** The indexer's REST API (`http://127.0.0.1:<port>`), when started (`indexer: true`). */
  indexerUrl: string | undefined
  /** A wallet of `privateKey` on this chain (with the public actions), e.g. of `devPrivateKey`. */
  wallet(privateKey: Hex): LocalWallet
  /** Stops the agents, the store server and the chain, and removes the temporary directories; idempotent. */
  stop(): Promise<void>
}

/** Hardhat accounts (of `startDevnet`'s 20): #0 deployed everything, #1 is the development client. */
const DEV_ACCOUNT = 1
const FIRST_PROVIDER_ACCOUNT = 2

/**
 * Starts the local network: chain, store, sources, provider agents and a funded development account.
 *
 * @example
 * const network = await startLocalNetwork({ port: 8545, storePort: 5050 })
 * // … point the dashboard at network.rpcUrl and network.storeUrl …
 * await network.stop()
 */
export async function startLocalNetwork(parameters: StartLocalNetworkParameters = {}): Promise<LocalNetwork> {
  const { port, storePort, pollingInterval = 200, providers: count = 1 } = parameters
  // Hardhat's 20 accounts: #0 deploys, #1 is the client, the providers take #2 onwards.
  if (!Number.isInteger(count) || count < 1 || count > 18)
    throw new Error(`providers must be from 1 to 18 (the devnet's accounts #2 to #19), got ${count}`)
  const log = parameters.log ?? ((line: string) => console.log(line))
  const detail = (line: string) => log(`  ${line}`)
  const step = (id: LocalNetworkStepId, title: string) =>
    parameters.onStep === undefined ? log(title) : parameters.onStep({ id, title })
  /** Loud: on stderr, and in `log` when one is given. */
  const warn =
    parameters.warn ??
    ((message: string) => {
      console.warn(`\u001b[33m⚠ ${message}\u001b[39m`)
      parameters.log?.(`⚠ ${message}`)
    })
  const cleanups: (() => Promise<unknown>)[] = []
  let stopped: Promise<void> | undefined
  const stop = () => {
    stopped ??= (async () => {
      const errors: unknown[] = []
      for (const cleanup of cleanups.reverse()) await cleanup().catch((error: unknown) => errors.push(error))
      if (errors.length > 0) throw new AggregateError(errors, 'localNetwork: stopping failed')
    })()
    return stopped
  }

  try {
    step(
      'chain',
      `Starting a Hardhat chain${port === undefined ? '' : ` on port ${port}`} and deploying Gridforge with Ignition`,
    )
    const chain = await startLocalChain({ port, pollingInterval })
    cleanups.push(() => chain.stop())
    const { deployment } = chain
    detail(`chain ${chain.chainId} at ${chain.rpcUrl}; market ${deployment.contracts.market}`)
    // Audits: a drawn result waits for the auditors' joining window; the shortest the market allows
    // (default 2 minutes) keeps the demo and the smoke tests short.
    await setParams(chain.wallet(chain.privateKeys[0] as Hex), { deployment, auditJoinWindow: '1m' })
    detail('audit joining window: 1 minute (the shortest allowed)')
    const known = getDeployment(31337)
    if (known.contracts.market.toLowerCase() !== deployment.contracts.market.toLowerCase())
      warn(
        `the devnet's market (${deployment.contracts.market}) is not the one @gridforge/contracts knows for 31337 (${known.contracts.market}): the dashboard, which uses the known deployment, will not see this network. Rebuild @gridforge/contracts.`,
      )
    const work = await mkdtemp(path.join(tmpdir(), 'gridforge-network-'))
    cleanups.push(() => rm(work, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 }))
    const storeRoot = path.join(work, 'store')
    const server = await startStoreServer({ root: storeRoot, port: storePort })
    cleanups.push(() => server.stop())
    const { store } = server
    detail(`store at ${server.url} (Kubo RPC subset and trustless gateway) on ${storeRoot}`)

    const deployer = chain.wallet(chain.privateKeys[0] as Hex)
    const devPrivateKey = chain.privateKeys[DEV_ACCOUNT] as Hex
    const providerKeys = Array.from({ length: count }, (_, index) =>
      index === 0 && parameters.providerPrivateKey !== undefined
        ? parameters.providerPrivateKey
        : (chain.privateKeys[FIRST_PROVIDER_ACCOUNT + index] as Hex),
    )
    const wallets = providerKeys.map((key) => chain.wallet(key))
    const providerNames = count === 1 ? 'the provider' : `${count} providers`
    step('funding', `Funding the development account and ${providerNames} with 1000 GRID each`)
    await chain.fund(
      [privateKeyToAddress(devPrivateKey), ...wallets.map((wallet) => wallet.account.address)],
      '1000',
    )

    step('image', 'Providing the source image')
    const { runtime, imageDigest, kind } = await sourceImage(detail, warn)
    const image = `gridforge-demo/wordcount@sha256:${imageDigest.slice(2)}`

    step(
      'sources',
      'Publishing the word-count, SHA-256 and web-page lease sources (metadata on the store, digest on chain)',
    )
    const sourceIds = await publishLocalSources(deployer, {
      deployment,
      store,
      image,
      imageDigest,
      log: detail,
    })

    step(
      'providers',
      `Registering ${providerNames} (stake, this host's profile and capabilities, subscriptions)`,
    )
    const host = await detectHost({ dataDir: work })
    detail(
      `this host: ${host.cpu.model}, ${host.cpu.cores} cores, ${host.memoryMiB} MiB, ${host.nvidia.gpus.length} NVIDIA GPU(s), Docker ${host.docker.reachable ? host.docker.version : 'unreachable'}`,
    )
    const profile = await storeLocalProfile({ host, store, log: detail, warn })
    for (const [index, wallet] of wallets.entries()) {
      await registerLocalProvider(wallet, {
        deployment,
        host,
        profile,
        sourceIds: [sourceIds.wordCount, sourceIds.sha256, sourceIds.webPage],
      })
      const account = chain.privateKeys.indexOf(providerKeys[index] as Hex)
      detail(`registered ${wallet.account.address}${account < 0 ? '' : ` (account #${account})`}`)
    }

    step('agents', count === 1 ? 'Starting the provider agent' : `Starting the ${count} provider agents`)
    const providers: LocalProvider[] = []
    for (const [index, wallet] of wallets.entries()) {
      const address = wallet.account.address
      const agent = await startAgent({
        client: wallet,
        deployment,
        store,
        runtime,
        host,
        dataDir: path.join(work, 'agents', address),
        // No `sources`: the subscriptions decide, and the providers join every source published with
        // the local image (below), so a source a client publishes runs here too (examples/node-client).
        policy: { concurrency: 2 },
        // Leases of the web page source, on a gateway of its own (a free port) per agent: lease
        // containers need Docker.
        ...(kind === 'docker'
          ? {
              leases: {
                enabled: true,
                sources: [sourceIds.webPage],
                minPricePerSec: 1n,
                maxConcurrent: 4,
                redeemEveryMs: 60_000,
              },
            }
          : {}),
        pollingInterval,
        rescanInterval: 10 * pollingInterval,
        // Gas is free here and a held result's payment is what the demo waits for: a release waits 5 s for
        // a claim to carry it (30 s by default), then goes alone.
        releaseWaitSec: 5,
        logger:
          parameters.agentLogger?.({ index, address }) ??
          agentLogger(log, count === 1 ? {} : { provider: address }),
      })
      // Stopped before the store and the chain it talks to.
      cleanups.push(() => agent.stop())
      providers.push({ address, agent })
    }

    const joinSource = async (wallet: LocalWallet, sourceId: number) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await subscribeSources(wallet, { deployment, sourceIds: [sourceId] })
          detail(`${wallet.account.address} joined source ${sourceId} (published with the local image)`)
          return
        } catch (error) {
          // The agent may send a transaction of the same account at the same moment: try again.
          if (attempt === 5) return warn(`the provider could not join source ${sourceId}: ${String(error)}`)
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
        }
      }
    }
    const unwatchSources = deployer.watchContractEvent({
      address: deployment.contracts.sources,
      abi: sourceRegistryAbi,
      eventName: 'SourcePublished',
      pollingInterval,
      onLogs: (logs) => {
        for (const { args } of logs) {
          const known = Object.values(sourceIds).includes(args.sourceId)
          if (args.sourceId !== undefined && !known && args.imageDigest === imageDigest)
            for (const wallet of wallets) void joinSource(wallet, args.sourceId)
        }
      },
    })
    cleanups.push(async () => unwatchSources())
    detail(
      `${count === 1 ? 'agent' : `${count} agents`} running (${kind === 'docker' ? 'Docker containers' : 'UNISOLATED host processes'})`,
    )

    let indexerUrl: string | undefined
    if (parameters.indexer === true) {
      step('indexer', 'Starting the indexer (Ponder on PGlite) and its REST API')
      const deploymentFile = path.join(work, 'deployment.json')
      await writeFile(deploymentFile, JSON.stringify(chain.deployment))
      const indexer = await startIndexer({
        rpcUrl: chain.rpcUrl,
        deploymentFile,
        database: { pgliteDir: path.join(work, 'indexer') },
        // Ponder's first start compiles its build: on a slow machine, well over its default minute.
        timeoutMs: 180_000,
      })
      cleanups.push(() => indexer.stop())
      indexerUrl = indexer.url
      detail(`indexer at ${indexer.url} (OpenAPI document: ${indexer.url}/openapi.json)`)
    }

    return {
      rpcUrl: chain.rpcUrl,
      chainId: chain.chainId,
      storeUrl: server.url,
      store,
      deployment,
      devPrivateKey,
      providerAddress: providers[0]?.address as Hex,
      providers,
      profile,
      sourceIds,
      image,
      runtime: kind,
      indexerUrl,
      wallet: chain.wallet,
      stop,
      [Symbol.asyncDispose]: stop,
    }
  } catch (error) {
    await stop().catch(() => {})
    throw error
  }
}

/** The sources' image built on this host (no registry), or the process runtime when no Docker engine answers. */
async function sourceImage(
  log: (line: string) => void,
  warn: (message: string) => void,
): Promise<{
  runtime: ContainerRuntime
  imageDigest: Hex
  kind: 'docker' | 'process'
}> {
  const built = await buildDemoImage()
  if ('id' in built) {
    log(`Built the source image gridforge-demo/wordcount locally: ${built.id.slice(0, 19)}…`)
    return { runtime: dockerRuntime(), imageDigest: `0x${built.id.replace('sha256:', '')}`, kind: 'docker' }
  }
  warn(built.reason)
  warn(
    'Falling back to the UNISOLATED process runtime: task commands run directly on this host, without a container.',
  )
  return { runtime: processRuntime(), imageDigest: `0x${'0'.repeat(63)}1`, kind: 'process' }
}

/** The agent's key events, one line each; warnings and errors in full. */
function agentLogger(log: (line: string) => void, bound: Record<string, unknown> = {}): Logger {
  const fields = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({ ...bound, ...extra }, (_key, value) =>
      typeof value === 'bigint' ? String(value) : value,
    )
  const line = (level: string) => (message: string, extra?: Record<string, unknown>) =>
    log(`  agent ${level}${message} ${fields(extra)}`)
  return {
    debug() {},
    info: line(''),
    warn: line('warning: '),
    error: line('error: '),
    child: (extra) => agentLogger(log, { ...bound, ...extra }),
  }
}

/** What is running, one line each: printed by `pnpm network` and the dashboard's `pnpm dev`. */
export function describeLocalNetwork(network: LocalNetwork): string {
  const runtime =
    network.runtime === 'docker' ? 'runs tasks in Docker' : 'UNISOLATED process runtime: no Docker engine'
  return [
    `  chain      ${network.rpcUrl} (chain id ${network.chainId}), market ${network.deployment.contracts.market}`,
    `  store      ${network.storeUrl} (Kubo RPC subset, trustless gateway)`,
    `  sources    #${network.sourceIds.wordCount} word count (output: words), #${network.sourceIds.sha256} SHA-256 (output: sha256), #${network.sourceIds.webPage} web page (a lease)`,
    ...network.providers.map((provider) => {
      const gateway = provider.agent.leaseGateway
      // Browsers resolve every *.localhost name to this host; Node and curl may not (curl --resolve).
      const leases =
        gateway === undefined
          ? ''
          : `; leases on http://${gateway.publicHost}, lease <id> at http://<id>.${gateway.publicHost}/ in a browser`
      return `  provider   ${provider.address} (${runtime}${leases})`
    }),
    ...(network.providers.some(({ agent }) => agent.leaseGateway !== undefined)
      ? [
          `  lease      gridforge lease open --source ${network.sourceIds.webPage} --max-price-per-hour 0.36 --duration 1h --deposit 1`,
        ]
      : []),
    ...(network.indexerUrl === undefined
      ? []
      : [`  indexer    ${network.indexerUrl} (REST API; OpenAPI at ${network.indexerUrl}/openapi.json)`]),
    `  client     ${privateKeyToAddress(network.devPrivateKey)} (Hardhat account #1, 1000 GRID: a well-known development key)`,
  ].join('\n')
}
