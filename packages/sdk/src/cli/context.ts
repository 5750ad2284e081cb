/**
 * What every command needs, resolved from the global options only when a
 * command asks for it: the node (checked against `--chain`), the deployment,
 * the content store and the signing account.
 */
import { readFile } from 'node:fs/promises'
import { homedir } from 'node:os'
import path from 'node:path'
import { DeploymentNotFoundError, getDeployment } from '@gridforge/contracts'
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
  type Transport,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { getChainId } from 'viem/actions'
import * as z from 'zod'
import { decryptKeystore } from '../keystore/keystore.js'
import type { Deployment } from '../types/deployment.js'
import { gridToken, type TokenInfo } from '../utils/amount.js'
import { ChainMismatchError, DeploymentMissingError, RpcUnreachableError, UsageError } from './errors.js'
import { type PromptInput, promptHidden } from './prompt.js'
import { openStore, type Store } from './store.js'
import type { Terminal } from './terminal.js'

/** The global options, as commander parses them. */
export interface GlobalOptions {
  rpc: string
  chain?: string | undefined
  deployment?: string | undefined
  store?: string | undefined
  json?: boolean | undefined
  keystore?: string | undefined
}

export interface ContextOptions {
  terminal: Terminal
  options: GlobalOptions
  env: Readonly<Record<string, string | undefined>>
  stdin: PromptInput
}

/** A client with the chain and (for writes) the account set. */
export type CliClient = Client<Transport, Chain, Account | undefined>
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

/** How often watches poll the node (viem's default is 4 s; progress should feel live). */
const pollingInterval = 1_000

const privateKeyPattern = /^(0x)?[0-9a-fA-F]{64}$/

export class Context {
  readonly terminal: Terminal
  readonly options: GlobalOptions
  readonly env: Readonly<Record<string, string | undefined>>
  readonly stdin: PromptInput
  #chain: Promise<Chain> | undefined
  #deployment: Promise<Deployment> | undefined
  #account: Promise<LocalAccount> | undefined
  #store: Store | undefined

  constructor({ terminal, options, env, stdin }: ContextOptions) {
    this.terminal = terminal
    this.options = options
    this.env = env
    this.stdin = stdin
  }

  get rpcUrl(): string {
    return this.options.rpc
  }

  #transport(): Transport {
    return http(this.rpcUrl, { retryCount: 1, timeout: 20_000 })
  }

  /** The node's chain (eth_chainId), checked against `--chain`. */
  chain(): Promise<Chain> {
    this.#chain ??= (async () => {
      let id: number
      try {
        id = await getChainId(
          createClient({ transport: http(this.rpcUrl, { retryCount: 0, timeout: 10_000 }) }),
        )
      } catch (error) {
        throw new RpcUnreachableError({ url: this.rpcUrl, cause: error })
      }
      if (this.options.chain !== undefined) {
        const expected = parseChainOption(this.options.chain)
        if (expected !== id) {
          throw new ChainMismatchError({ expected, actual: id, url: this.rpcUrl, source: '--chain' })
        }
      }
      return defineChain({
        id,
        name: `chain ${id}`,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        rpcUrls: { default: { http: [this.rpcUrl] } },
      })
    })()
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
    this.#deployment ??= (async () => {
      const chain = await this.chain()
      const file = this.options.deployment
      if (file === undefined) {
        try {
          return { ...getDeployment(chain.id), chainId: chain.id }
        } catch (error) {
          if (error instanceof DeploymentNotFoundError)
            throw new DeploymentMissingError({ chainId: chain.id })
          throw error
        }
      }
      const json = await readJsonFile(file, '--deployment')
      const result = deploymentFileSchema.safeParse(json)
      if (!result.success) {
        const issue = result.error.issues[0]
        throw new UsageError(
          `--deployment ${file}: ${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'invalid'}`,
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
          url: this.rpcUrl,
          source: `--deployment ${file}`,
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

  /** The content store: `--store` (a directory or a Kubo RPC URL), GRIDFORGE_STORE, or ~/.gridforge/store. */
  store(): Store {
    this.#store ??= openStore(
      this.options.store ?? this.env.GRIDFORGE_STORE ?? path.join(homedir(), '.gridforge', 'store'),
    )
    return this.#store
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
      if (keystore !== undefined) return privateKeyToAccount(this.#secret(await this.#decrypt(keystore)))
      const key = this.env.GRIDFORGE_PRIVATE_KEY
      if (key === undefined || key === '') {
        throw new UsageError('this command signs transactions, but no key is configured', [
          'Set GRIDFORGE_PRIVATE_KEY, or pass --keystore <file> (password in GRIDFORGE_KEYSTORE_PASSWORD).',
        ])
      }
      this.terminal.secret(key)
      if (!privateKeyPattern.test(key.trim())) {
        // Never quote the value: a malformed key is still (part of) a key.
        throw new UsageError('GRIDFORGE_PRIVATE_KEY is not a private key (expected 64 hex digits)')
      }
      const trimmed = key.trim()
      return privateKeyToAccount(this.#secret((trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex))
    })()
    return this.#account
  }

  #secret(key: Hex): Hex {
    this.terminal.secret(key)
    return key
  }

  async #decrypt(file: string): Promise<Hex> {
    const json = await readJsonFile(file, '--keystore')
    let password = this.env.GRIDFORGE_KEYSTORE_PASSWORD
    if (password === undefined) {
      password = await promptHidden(`Password for ${file}: `, this.stdin, this.terminal.stderr)
    }
    return decryptKeystore(json, password)
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

/** Reads and parses a JSON file; errors name the option and never quote the contents. */
export async function readJsonFile(file: string, option: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(
      `${option}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new UsageError(`${option}: ${file} is not valid JSON`)
  }
}
