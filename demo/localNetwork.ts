/**
 * A whole Gridforge network on this machine: a Hardhat devnet with the
 * contracts deployed, a content store served over a Kubo-compatible RPC
 * (storeServer.ts), two published sources (word count and SHA-256), one
 * provider agent (Hardhat account #2) running their tasks in Docker
 * containers, and the development client account (#1) funded with GRID.
 * Used by `pnpm network` (network.ts), the dashboard's `pnpm dev` and its
 * end-to-end test.
 *
 * @example
 * await using network = await startLocalNetwork()
 * network.rpcUrl // 'http://127.0.0.1:41234'
 * network.storeUrl // 'http://127.0.0.1:41235'
 * network.sourceIds.wordCount // 1
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { getDeployment, sourceRegistryAbi } from '@gridforge/contracts'
import {
  type Agent,
  type ContainerRuntime,
  capabilitiesOf,
  detectHost,
  dockerRuntime,
  type Logger,
  processRuntime,
  startAgent,
} from '@gridforge/provider-kit'
import { type Deployment, publishSource, registerProvider, stake, subscribeSources } from '@gridforge/sdk'
import { fsStore } from '@gridforge/sdk/storage'
import {
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  nonceManager,
  parseEther,
  parseUnits,
  publicActions,
} from 'viem'
import { privateKeyToAccount, privateKeyToAddress } from 'viem/accounts'
import { hardhat } from 'viem/chains'
import { type Devnet, startDevnet } from '../packages/contracts/scripts/devnet.js'
import { buildDemoImage } from './image.js'
import { type StoreServer, startStoreServer } from './storeServer.js'

export interface StartLocalNetworkParameters {
  /** Port of the chain's JSON-RPC (default: a free port). */
  port?: number | undefined
  /** Port of the store's Kubo RPC (default: a free port). */
  storePort?: number | undefined
  /** Progress lines, the agent's key events and warnings (default: `console.log`). */
  log?: ((line: string) => void) | undefined
  /** Milliseconds between the agent's polls for new events (default 200). */
  pollingInterval?: number | undefined
  /**
   * The provider's key (default: Hardhat account #2). Agents remove the task containers of their
   * own account that their journal does not know, and every devnet has the same market address:
   * give a fresh key (`generatePrivateKey()`) to a network that may run beside another one on the
   * same Docker engine (tests), so that neither agent removes the other's containers.
   */
  providerPrivateKey?: Hex | undefined
}

/** Ids of the sources published on the local network. */
export interface LocalSourceIds {
  /** Counts the words of the input (`words` in the output); logs `counted`. */
  wordCount: number
  /** The SHA-256 of the input in hex (`sha256` in the output); logs `hashed`. */
  sha256: number
}

export interface LocalNetwork extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  rpcUrl: string
  chainId: 31337
  /** The Kubo RPC URL of the store (`kuboStore({ url: storeUrl })`). */
  storeUrl: string
  deployment: Deployment
  /** Hardhat account #1: the development client, funded with 1000 GRID. */
  devPrivateKey: Hex
  /** The provider's account (Hardhat account #2 unless another key was given). */
  providerAddress: Hex
  sourceIds: LocalSourceIds
  /**
   * The local image (`gridforge-demo/wordcount@sha256:…`, a static busybox): sources published with
   * it are joined by the local provider within a poll or two.
   */
  image: string
  /** How the agent runs tasks: Docker containers, or (no engine answered) unisolated host processes. */
  runtime: 'docker' | 'process'
  /** Stops the agent, the store server and the chain, and removes the temporary directories; idempotent. */
  stop(): Promise<void>
}

/** Hardhat accounts (of `startDevnet`'s 20): #0 deployed everything, #1 is the development client. */
const DEV_ACCOUNT = 1
const PROVIDER_ACCOUNT = 2

/** Word count, as in `pnpm demo`. */
const wordCountCommand = [
  'sh',
  '-c',
  'wc -w < "$GRIDFORGE_INPUT_DIR"/input | tr -d " " > "$GRIDFORGE_OUTPUT_DIR"/words; echo counted',
]
const sha256Command = [
  'sh',
  '-c',
  'sha256sum < "$GRIDFORGE_INPUT_DIR"/input | cut -d " " -f 1 > "$GRIDFORGE_OUTPUT_DIR"/sha256; echo hashed',
]

/**
 * Starts the local network: chain, store, sources, provider agent and a funded development account.
 *
 * @example
 * const network = await startLocalNetwork({ port: 8545, storePort: 5050 })
 * // … point the dashboard at network.rpcUrl and network.storeUrl …
 * await network.stop()
 */
export async function startLocalNetwork(parameters: StartLocalNetworkParameters = {}): Promise<LocalNetwork> {
  const { port, storePort, pollingInterval = 200 } = parameters
  const log = parameters.log ?? ((line: string) => console.log(line))
  /** Loud: always on stderr, and in `log` when one is given. */
  const warn = (message: string) => {
    console.warn(`\u001b[33m⚠ ${message}\u001b[39m`)
    parameters.log?.(`⚠ ${message}`)
  }
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
    log(`Starting a Hardhat chain${port === undefined ? '' : ` on port ${port}`} and deploying Gridforge`)
    const devnet: Devnet = await startDevnet({ port })
    cleanups.push(() => devnet.stop())
    const deployment: Deployment = devnet.deployment
    const known = getDeployment(31337)
    if (known.contracts.market.toLowerCase() !== deployment.contracts.market.toLowerCase())
      warn(
        `the devnet's market (${deployment.contracts.market}) is not the one @gridforge/contracts knows for 31337 (${known.contracts.market}): the dashboard, which uses the known deployment, will not see this network. Rebuild @gridforge/contracts.`,
      )

    const work = await mkdtemp(path.join(tmpdir(), 'gridforge-dashboard-'))
    cleanups.push(() => rm(work, { recursive: true, force: true }))
    const storeRoot = path.join(work, 'store')
    const server: StoreServer = await startStoreServer({ root: storeRoot, port: storePort })
    cleanups.push(() => server.stop())
    const store = fsStore({ root: storeRoot })
    log(`Store (Kubo RPC subset) at ${server.url} on ${storeRoot}`)

    const wallet = (key: Hex) =>
      createWalletClient({
        account: privateKeyToAccount(key, { nonceManager }),
        chain: { ...hardhat, id: devnet.chainId },
        transport: http(devnet.rpcUrl),
        pollingInterval,
      }).extend(publicActions)
    const deployer = wallet(devnet.privateKeys[0] as Hex)
    const dev = wallet(devnet.privateKeys[DEV_ACCOUNT] as Hex)
    const providerKey = parameters.providerPrivateKey ?? (devnet.privateKeys[PROVIDER_ACCOUNT] as Hex)
    const provider = wallet(providerKey)

    log('Funding the development account and the provider with 1000 GRID each')
    if (!devnet.privateKeys.includes(providerKey)) {
      const hash = await deployer.sendTransaction({ to: provider.account.address, value: parseEther('10') })
      await deployer.waitForTransactionReceipt({ hash })
    }
    for (const account of [dev, provider]) {
      const hash = await deployer.writeContract({
        address: deployment.contracts.token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [account.account.address, parseUnits('1000', 18)],
      })
      await deployer.waitForTransactionReceipt({ hash })
    }

    const { runtime, imageDigest, kind } = await sourceImage(log, warn)
    log('Publishing the word-count and SHA-256 sources')
    const image = `gridforge-demo/wordcount@sha256:${imageDigest.slice(2)}`
    const resources = { cpus: 1, memoryMiB: 128, maxRuntimeSec: 300 }
    const publish = async (name: string, description: string, command: string[]) => {
      const metadata = await store.putJson({ name, description, image, command, resources, license: 'MIT' })
      const { sourceId } = await publishSource(deployer, {
        deployment,
        imageDigest,
        metadata,
        requirements: { maxRuntimeSec: '5m', deterministic: true },
      })
      return sourceId
    }
    const sourceIds: LocalSourceIds = {
      wordCount: await publish(
        'Word count',
        'Counts the words of a text: the smallest deterministic source.',
        wordCountCommand,
      ),
      sha256: await publish('SHA-256', 'The SHA-256 digest of the input, in hex.', sha256Command),
    }

    const which =
      providerKey === devnet.privateKeys[PROVIDER_ACCOUNT] ? ` (account #${PROVIDER_ACCOUNT})` : ''
    log(`Registering the provider ${provider.account.address}${which}`)
    const host = await detectHost({ dataDir: work })
    const profile = await store.putJson({ kind: 'gridforge-provider-profile', host })
    await stake(provider, { deployment, amount: '200', approve: true })
    await registerProvider(provider, { deployment, capabilities: capabilitiesOf(host), profile })
    await subscribeSources(provider, { deployment, sourceIds: [sourceIds.wordCount, sourceIds.sha256] })

    const agent: Agent = await startAgent({
      client: provider,
      deployment,
      store,
      runtime,
      host,
      dataDir: path.join(work, 'agent'),
      // No `sources`: the subscriptions decide, and the provider joins every source published with
      // the local image (below), so a source a client publishes runs here too (examples/node-client).
      policy: { concurrency: 2 },
      pollingInterval,
      rescanInterval: 2_000,
      logger: agentLogger(log),
    })
    // Stopped before the store and the chain it talks to.
    cleanups.push(() => agent.stop())

    const joinSource = async (sourceId: number) => {
      for (let attempt = 1; ; attempt++) {
        try {
          await subscribeSources(provider, { deployment, sourceIds: [sourceId] })
          log(`The provider joined source ${sourceId} (published with the local image)`)
          return
        } catch (error) {
          // The agent may send a transaction of the same account at the same moment: try again.
          if (attempt === 5) return warn(`the provider could not join source ${sourceId}: ${String(error)}`)
          await new Promise((resolve) => setTimeout(resolve, 500 * attempt))
        }
      }
    }
    const unwatchSources = provider.watchContractEvent({
      address: deployment.contracts.sources,
      abi: sourceRegistryAbi,
      eventName: 'SourcePublished',
      pollingInterval,
      onLogs: (logs) => {
        for (const { args } of logs) {
          const known = args.sourceId === sourceIds.wordCount || args.sourceId === sourceIds.sha256
          if (args.sourceId !== undefined && !known && args.imageDigest === imageDigest)
            void joinSource(args.sourceId)
        }
      },
    })
    cleanups.push(async () => unwatchSources())
    log(`Provider agent running (${kind === 'docker' ? 'Docker containers' : 'UNISOLATED host processes'})`)

    return {
      rpcUrl: devnet.rpcUrl,
      chainId: devnet.chainId,
      storeUrl: server.url,
      deployment,
      devPrivateKey: devnet.privateKeys[DEV_ACCOUNT] as Hex,
      providerAddress: provider.account.address,
      sourceIds,
      image,
      runtime: kind,
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
    `  store      ${network.storeUrl} (Kubo RPC subset)`,
    `  sources    #${network.sourceIds.wordCount} word count (output: words), #${network.sourceIds.sha256} SHA-256 (output: sha256)`,
    `  provider   ${network.providerAddress} (${runtime})`,
    `  client     ${privateKeyToAddress(network.devPrivateKey)} (Hardhat account #1, 1000 GRID: a well-known development key)`,
  ].join('\n')
}
