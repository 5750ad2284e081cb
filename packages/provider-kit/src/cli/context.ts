/**
 * What every command needs, resolved from the config file only when a command
 * asks for it: the config, the node (checked against `chainId`), the
 * deployment, the signing account, the content store and the Docker engine.
 */
import { homedir } from 'node:os'
import path from 'node:path'
import {
  type CliClient,
  type CliWalletClient,
  CommandContext,
  chainOf,
  deploymentOf,
  type ProgramOptions,
  privateKeyFromEnv,
  readJsonFile,
  readKeystore,
} from '@gridforge/cli-kit'
import { type Deployment, gridToken, type TokenInfo } from '@gridforge/sdk'
import { decryptKeystore } from '@gridforge/sdk/keystore'
import type { ContentStore } from '@gridforge/sdk/storage'
import type Docker from 'dockerode'
import {
  type Address,
  type Chain,
  createClient,
  http,
  type LocalAccount,
  nonceManager,
  type Transport,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { ConfigNotFoundError } from '../config/errors.js'
import { loadConfig } from '../config/loadConfig.js'
import { openStore } from '../config/openStore.js'
import type { ProviderConfig, RuntimeConfig } from '../config/schema.js'
import { dockerClient } from '../runtime/docker/dockerClient.js'
import { rpcHint } from './errors.js'
import type { RunState } from './program.js'

/** The global options, as commander parses them. */
export interface GlobalOptions {
  config?: string | undefined
  json?: boolean | undefined
}

/** What to do when the node is another chain than the config or the deployment file says. */
const chainHint = (expected: number, actual: number) =>
  `Point [chain] rpc at a chain ${expected} node, or set chainId = ${actual}.`

/** Where the config file is when neither --config nor GRIDFORGE_PROVIDER_CONFIG says. */
export function defaultConfigPath(home = homedir()): string {
  return path.join(home, '.gridforge', 'provider.toml')
}

export class Context extends CommandContext<GlobalOptions> {
  /** Shared with `runCli`: the exit code and the RPC URL for error messages. */
  readonly state: RunState
  #config: Promise<ProviderConfig> | undefined
  #chain: Promise<Chain> | undefined
  #deployment: Promise<Deployment> | undefined
  #account: Promise<LocalAccount> | undefined
  #store: ContentStore | undefined

  constructor(program: ProgramOptions, options: GlobalOptions, state: RunState = { exitCode: 0 }) {
    super(program, options)
    this.state = state
  }

  /** `--config`, else GRIDFORGE_PROVIDER_CONFIG, else ~/.gridforge/provider.toml. */
  get configPath(): string {
    const given = this.options.config ?? this.env.GRIDFORGE_PROVIDER_CONFIG
    return path.resolve(
      given === undefined || given === '' ? defaultConfigPath(this.env.HOME || homedir()) : given,
    )
  }

  /** Whether the config file was named (by --config or the environment) rather than defaulted. */
  get configNamed(): boolean {
    return (this.options.config ?? this.env.GRIDFORGE_PROVIDER_CONFIG ?? '') !== ''
  }

  /** The config file, parsed and validated. */
  config(): Promise<ProviderConfig> {
    this.#config ??= loadConfig(this.configPath, { home: this.env.HOME || homedir() }).then((config) => {
      this.state.rpcUrl = config.chain.rpc
      return config
    })
    return this.#config
  }

  /** The config file, or `undefined` when it was not named and the default file does not exist. */
  async configIfAny(): Promise<ProviderConfig | undefined> {
    try {
      return await this.config()
    } catch (error) {
      if (error instanceof ConfigNotFoundError && !this.configNamed) return undefined
      throw error
    }
  }

  #transport(config: ProviderConfig): Transport {
    return http(config.chain.rpc, {
      retryCount: config.chain.retryCount,
      retryDelay: config.chain.retryDelayMs,
      timeout: 20_000,
    })
  }

  /** The node's chain (eth_chainId), checked against the config's `chainId`. */
  chain(): Promise<Chain> {
    this.#chain ??= this.config().then((config) =>
      chainOf({
        url: config.chain.rpc,
        retryCount: 1,
        rpcHint,
        expected: () =>
          config.chain.chainId === undefined
            ? undefined
            : { id: config.chain.chainId, source: `${config.file} (chain.chainId)` },
        chainHint,
      }),
    )
    return this.#chain
  }

  /** A read-only client on the node. */
  async client(): Promise<CliClient> {
    const [config, chain] = await Promise.all([this.config(), this.chain()])
    return createClient({
      chain,
      transport: this.#transport(config),
      pollingInterval: config.agent.pollingIntervalMs,
    })
  }

  /** A client that signs with the provider's key (nonces from viem's nonce manager). */
  async walletClient(): Promise<CliWalletClient> {
    const [config, chain, account] = await Promise.all([this.config(), this.chain(), this.account()])
    return createClient({
      account,
      chain,
      transport: this.#transport(config),
      pollingInterval: config.agent.pollingIntervalMs,
    })
  }

  /** `[chain] deployment`, else the one `@gridforge/contracts` records for the node's chain. */
  deployment(): Promise<Deployment> {
    this.#deployment ??= Promise.all([this.config(), this.chain()]).then(([config, chain]) =>
      deploymentOf({
        chainId: chain.id,
        url: config.chain.rpc,
        file: config.chain.deployment,
        label: 'chain.deployment',
        source: `the deployment file ${config.chain.deployment}`,
        deploymentHint: 'Set [chain] deployment to a JSON file with the addresses:',
        chainHint,
      }),
    )
    return this.#deployment
  }

  /** The deployment's token (GRID, 18 decimals, unless the deployment file says otherwise). */
  async token(): Promise<TokenInfo> {
    return (await this.deployment()).token ?? gridToken
  }

  /** The content store of `[store]`. */
  async store(): Promise<ContentStore> {
    this.#store ??= openStore((await this.config()).store)
    return this.#store
  }

  /**
   * The provider's address without unlocking the key when the keystore
   * records it (its `address` field), so read-only commands need no password.
   */
  async address(): Promise<Address> {
    const { keystore } = (await this.config()).account
    if (keystore !== undefined) {
      const json = await readJsonFile(keystore, 'account.keystore')
      const recorded = (json as { address?: unknown } | null)?.address
      if (typeof recorded === 'string' && /^(0x)?[0-9a-fA-F]{40}$/.test(recorded)) {
        return (recorded.startsWith('0x') ? recorded : `0x${recorded}`) as Address
      }
    }
    return (await this.account()).address
  }

  /** The signing account: `[account] keystore` (with its password), else GRIDFORGE_PRIVATE_KEY. */
  account(): Promise<LocalAccount> {
    this.#account ??= (async () => {
      const { keystore } = (await this.config()).account
      if (keystore === undefined) {
        const key = privateKeyFromEnv(
          this,
          'Set GRIDFORGE_PRIVATE_KEY, or [account] keystore in the config file (password in GRIDFORGE_KEYSTORE_PASSWORD).',
        )
        return privateKeyToAccount(key, { nonceManager })
      }
      const { json, password } = await readKeystore(keystore, 'account.keystore', this)
      const key = await decryptKeystore(json, password)
      this.terminal.secret(key)
      return privateKeyToAccount(key, { nonceManager })
    })()
    return this.#account
  }

  /** The Docker engine of `[runtime]` (`undefined` for the process runtime). */
  async docker(): Promise<Docker | undefined> {
    return dockerOf((await this.config()).runtime)
  }
}

/** A Docker client for the configured engine: a socket, a remote URL, or dockerode's default (DOCKER_HOST). */
export function dockerOf(runtime: RuntimeConfig): Docker | undefined {
  if (runtime.kind !== 'docker') return undefined
  return dockerClient({ socket: runtime.socket, host: runtime.host })
}
