/**
 * What every command needs, resolved from the global options only when a
 * command asks for it: the node (checked against `--chain`), the deployment,
 * the content store and the signing account.
 */
import { homedir } from 'node:os'
import path from 'node:path'
import {
  type CliClient,
  type CliWalletClient,
  CommandContext,
  chainOf,
  deploymentOf,
  privateKeyFromEnv,
  readKeystore,
  UsageError,
} from '@gridforge/cli-kit'
import { type Address, type Chain, createClient, http, type LocalAccount, type Transport } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createIndexerClient, type IndexerClient } from '../indexer/createIndexerClient.js'
import { decryptKeystore } from '../keystore/keystore.js'
import type { Deployment } from '../types/deployment.js'
import { gridToken, type TokenInfo } from '../utils/amount.js'
import { rpcHint } from './errors.js'
import { openStore, type Store } from './store.js'

/** The global options, as commander parses them. */
export interface GlobalOptions {
  rpc: string
  chain?: string | undefined
  deployment?: string | undefined
  store?: string | undefined
  json?: boolean | undefined
  keystore?: string | undefined
  indexer?: string | undefined
}

/** How often watches poll the node (viem's default is 4 s; progress should feel live). */
const pollingInterval = 1_000

/** What to do when the node is another chain than `--chain` or the deployment file says. */
const chainHint = (expected: number, actual: number) =>
  `Point --rpc at a chain ${expected} node, or pass --chain ${actual}.`

export class Context extends CommandContext<GlobalOptions> {
  #chain: Promise<Chain> | undefined
  #deployment: Promise<Deployment> | undefined
  #account: Promise<LocalAccount> | undefined
  #store: Store | undefined
  #indexer: IndexerClient | undefined

  get rpcUrl(): string {
    return this.options.rpc
  }

  #transport(): Transport {
    return http(this.rpcUrl, { retryCount: 1, timeout: 20_000 })
  }

  /** The node's chain (eth_chainId), checked against `--chain`. */
  chain(): Promise<Chain> {
    this.#chain ??= chainOf({
      url: this.rpcUrl,
      retryCount: 0,
      rpcHint,
      expected: () =>
        this.options.chain === undefined
          ? undefined
          : { id: parseChainOption(this.options.chain), source: '--chain' },
      chainHint,
    })
    return this.#chain
  }

  /** A read-only client on the node. */
  async client(): Promise<CliClient> {
    return createClient({ chain: await this.chain(), transport: this.#transport(), pollingInterval })
  }

  /** A client that signs with the configured key. */
  async walletClient(): Promise<CliWalletClient> {
    const [chain, account] = await Promise.all([this.chain(), this.account()])
    return createClient({ account, chain, transport: this.#transport(), pollingInterval })
  }

  /** `--deployment <file>`, else the one `@gridforge/contracts` records for the node's chain. */
  deployment(): Promise<Deployment> {
    this.#deployment ??= this.chain().then((chain) =>
      deploymentOf({
        chainId: chain.id,
        url: this.rpcUrl,
        file: this.options.deployment,
        label: '--deployment',
        source: `--deployment ${this.options.deployment}`,
        deploymentHint: 'Pass --deployment <file.json> with the addresses:',
        chainHint,
      }),
    )
    return this.#deployment
  }

  /** The deployment's token (GRID, 18 decimals, unless the deployment file says otherwise). */
  async token(): Promise<TokenInfo> {
    return (await this.deployment()).token ?? gridToken
  }

  /** The content store: `--store` (a directory or a Kubo RPC URL), GRIDFORGE_STORE, or ~/.gridforge/store. */
  store(): Store {
    this.#store ??= openStore(
      this.options.store ?? this.env.GRIDFORGE_STORE ?? path.join(homedir(), '.gridforge', 'store'),
    )
    return this.#store
  }

  /**
   * `--indexer` (or GRIDFORGE_INDEXER_URL) for the list and statistics
   * commands; undefined without one. When it cannot answer they read the chain,
   * and say so on stderr (so that --json output stays one document).
   */
  indexer(): IndexerClient | undefined {
    const url = this.options.indexer
    if (url === undefined || url === '') return undefined
    if (!/^https?:\/\/./.test(url))
      throw new UsageError(`--indexer: '${url}' is not an http(s) URL`, [
        'Pass the URL of the indexer, e.g. --indexer http://127.0.0.1:42069.',
      ])
    this.#indexer ??= createIndexerClient({
      url,
      onFallback: ({ error }) =>
        this.terminal.err(`warning: ${error.shortMessage}; read the chain instead (slower)`),
    })
    return this.#indexer
  }

  /** Whether a key is configured (GRIDFORGE_PRIVATE_KEY or --keystore). */
  hasAccount(): boolean {
    return this.#keystorePath() !== undefined || (this.env.GRIDFORGE_PRIVATE_KEY ?? '') !== ''
  }

  #keystorePath(): string | undefined {
    const value = this.options.keystore ?? this.env.GRIDFORGE_KEYSTORE
    return value === undefined || value === '' ? undefined : value
  }

  /** The signing account: `--keystore` (with its password), else GRIDFORGE_PRIVATE_KEY. */
  account(): Promise<LocalAccount> {
    this.#account ??= (async () => {
      const keystore = this.#keystorePath()
      if (keystore === undefined) {
        return privateKeyToAccount(
          privateKeyFromEnv(
            this,
            'Set GRIDFORGE_PRIVATE_KEY, or pass --keystore <file> (password in GRIDFORGE_KEYSTORE_PASSWORD).',
          ),
        )
      }
      const { json, password } = await readKeystore(keystore, '--keystore', this)
      const key = await decryptKeystore(json, password)
      this.terminal.secret(key)
      return privateKeyToAccount(key)
    })()
    return this.#account
  }

  /** `address` if given, else the configured account's; an error saying what to pass when neither. */
  async addressOr(given: string | undefined, what: string): Promise<Address> {
    if (given !== undefined) {
      if (!/^0x[0-9a-fA-F]{40}$/.test(given)) throw new UsageError(`${what}: '${given}' is not an address`)
      return given as Address
    }
    if (!this.hasAccount()) {
      throw new UsageError(`${what}: pass an address, or configure a key to use your own`, [
        'Set GRIDFORGE_PRIVATE_KEY, or pass --keystore <file>.',
      ])
    }
    return (await this.account()).address
  }
}

function parseChainOption(value: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value)) || Number(value) === 0) {
    throw new UsageError(`--chain: '${value}' is not a chain id`, [
      'Pass the numeric chain id, e.g. --chain 31337.',
    ])
  }
  return Number(value)
}
