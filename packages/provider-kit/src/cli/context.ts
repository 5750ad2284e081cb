/**
 * What every command needs, resolved from the config file only when a command
 * asks for it: the config, the node (checked against `chainId`), the
 * deployment, the signing account, the content store and the Docker engine.
 */
import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import path from 'node:path'
import { DeploymentNotFoundError, getDeployment } from '@gridforge/contracts'
import { type Deployment, gridToken, type TokenInfo } from '@gridforge/sdk'
import { decryptKeystore } from '@gridforge/sdk/keystore'
import type { ContentStore } from '@gridforge/sdk/storage'
import type Docker from 'dockerode'
import {
  type Account,
  type Address,
  type Chain,
  type Client,
  createClient,
  defineChain,
  type Hex,
  http,
  type LocalAccount,
  nonceManager,
  type Transport,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { getChainId } from 'viem/actions'
import * as z from 'zod'
import { type PromptInput, promptHidden } from '../../../sdk/src/cli/prompt.js'
import type { Terminal } from '../../../sdk/src/cli/terminal.js'
import { ConfigNotFoundError } from '../config/errors.js'
import { loadConfig } from '../config/loadConfig.js'
import { openStore } from '../config/openStore.js'
import type { ProviderConfig, RuntimeConfig } from '../config/schema.js'
import { dockerClient } from '../runtime/docker/dockerClient.js'
import { ChainMismatchError, DeploymentMissingError, RpcUnreachableError, UsageError } from './errors.js'
import type { RunState } from './program.js'

/** The global options, as commander parses them. */
export interface GlobalOptions {
  config?: string | undefined
  json?: boolean | undefined
}

export interface ContextOptions {
  terminal: Terminal
  options: GlobalOptions
  env: Readonly<Record<string, string | undefined>>
  stdin: PromptInput
  /** Shared with `runCli`: the exit code and the RPC URL for error messages. */
  state?: RunState | undefined
}

/** A client with the chain set (reads). */
export type CliClient = Client<Transport, Chain, Account | undefined>
/** A client with the provider's account (writes). */
export type CliWalletClient = Client<Transport, Chain, Account>

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'expected an address (0x + 40 hex digits)')

const deploymentFileSchema = z.object({
  chainId: z.number().int().positive().optional(),
  blockNumber: z.number().int().nonnegative().default(0),
  contracts: z.object({
    token: address,
    sources: address,
    staking: address,
    providers: address,
    market: address,
    timelock: address.optional(),
  }),
  token: z.object({ symbol: z.string().min(1), decimals: z.number().int().min(0).max(36) }).optional(),
})

const privateKeyPattern = /^(0x)?[0-9a-fA-F]{64}$/

/** Where the config file is when neither --config nor GRIDFORGE_PROVIDER_CONFIG says. */
export function defaultConfigPath(home = homedir()): string {
  return path.join(home, '.gridforge', 'provider.toml')
}

export class Context {
  readonly terminal: Terminal
  readonly options: GlobalOptions
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: PromptInput
  readonly state: RunState
  #config: Promise<ProviderConfig> | undefined
  #chain: Promise<Chain> | undefined
  #deployment: Promise<Deployment> | undefined
  #account: Promise<LocalAccount> | undefined
  #store: ContentStore | undefined

  constructor({ terminal, options, env, stdin, state = { exitCode: 0 } }: ContextOptions) {
    this.terminal = terminal
    this.options = options
    this.env = env
    this.stdin = stdin
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
    this.#chain ??= (async () => {
      const config = await this.config()
      const url = config.chain.rpc
      let id: number
      try {
        id = await getChainId(createClient({ transport: http(url, { retryCount: 1, timeout: 10_000 }) }))
      } catch (error) {
        throw new RpcUnreachableError({ url, cause: error })
      }
      if (config.chain.chainId !== undefined && config.chain.chainId !== id) {
        throw new ChainMismatchError({
          expected: config.chain.chainId,
          actual: id,
          url,
          source: `${config.file} (chain.chainId)`,
        })
      }
      return defineChain({
        id,
        name: `chain ${id}`,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [url] } },
      })
    })()
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
    this.#deployment ??= (async () => {
      const [config, chain] = await Promise.all([this.config(), this.chain()])
      const file = config.chain.deployment
      if (file === undefined) {
        try {
          return { ...getDeployment(chain.id), chainId: chain.id }
        } catch (error) {
          if (error instanceof DeploymentNotFoundError)
            throw new DeploymentMissingError({ chainId: chain.id })
          throw error
        }
      }
      const json = await readJsonFile(file, 'chain.deployment')
      const result = deploymentFileSchema.safeParse(json)
      if (!result.success) {
        const issue = result.error.issues[0]
        throw new UsageError(
          `chain.deployment ${file}: ${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'invalid'}`,
          [
            'The file needs { "contracts": { "token", "sources", "staking", "providers", "market" }, "blockNumber" }.',
          ],
        )
      }
      const deployment = result.data
      if (deployment.chainId !== undefined && deployment.chainId !== chain.id) {
        throw new ChainMismatchError({
          expected: deployment.chainId,
          actual: chain.id,
          url: config.chain.rpc,
          source: `the deployment file ${file}`,
        })
      }
      return {
        chainId: chain.id,
        blockNumber: deployment.blockNumber,
        contracts: deployment.contracts as Deployment['contracts'],
        token: deployment.token,
      }
    })()
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
      if (keystore !== undefined)
        return privateKeyToAccount(this.#secret(await this.#decrypt(keystore)), { nonceManager })
      const key = this.env.GRIDFORGE_PRIVATE_KEY
      if (key === undefined || key === '') {
        throw new UsageError('this command signs transactions, but no key is configured', [
          'Set GRIDFORGE_PRIVATE_KEY, or [account] keystore in the config file (password in GRIDFORGE_KEYSTORE_PASSWORD).',
        ])
      }
      this.terminal.secret(key)
      if (!privateKeyPattern.test(key.trim())) {
        // Never quote the value: a malformed key is still (part of) a key.
        throw new UsageError('GRIDFORGE_PRIVATE_KEY is not a private key (expected 64 hex digits)')
      }
      const trimmed = key.trim()
      return privateKeyToAccount(this.#secret((trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex), {
        nonceManager,
      })
    })()
    return this.#account
  }

  #secret(key: Hex): Hex {
    this.terminal.secret(key)
    return key
  }

  async #decrypt(file: string): Promise<Hex> {
    const json = await readJsonFile(file, 'account.keystore')
    let password = this.env.GRIDFORGE_KEYSTORE_PASSWORD
    if (password === undefined)
      password = await promptHidden(`Password for ${file}: `, this.stdin, this.terminal.stderr)
    return decryptKeystore(json, password)
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

/** Reads and parses a JSON file; errors name the config field and never quote the contents. */
export async function readJsonFile(file: string, field: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(
      `${field}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`${field}: ${file} is not valid JSON`)
  }
}
