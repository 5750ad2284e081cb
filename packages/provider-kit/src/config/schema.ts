/**
 * The config file's schema: what each field accepts, its default, and the
 * message when it is wrong. Sizes, intervals and amounts are written the way
 * people say them (`"2GiB"`, `"30s"`, `"0.5"`) and resolved here to bytes,
 * milliseconds and validated decimal strings; paths are resolved against the
 * file's directory, `~` against the home directory.
 */
import path from 'node:path'
import * as z from 'zod'
import type { LogLevel } from '../logger.js'
import type { ResourceLimits } from '../runtime/ContainerRuntime.js'
import { isTokenAmount, parseInterval, parseSize, type TokenAmount } from './units.js'

/** The config, validated, with every default filled in and every path absolute. */
export interface ProviderConfig {
  /** Absolute path of the file it was read from. */
  file: string
  chain: ChainConfig
  account: AccountConfig
  store: StoreConfig
  runtime: RuntimeConfig
  policy: PolicyConfig
  agent: AgentConfig
  /** `undefined`: earnings stay in the market balance until withdrawn by hand. */
  withdraw: WithdrawConfig | undefined
  register: RegisterConfig
  leases: LeasesConfig
}

export interface ChainConfig {
  /** JSON-RPC endpoint (http or https). */
  rpc: string
  /** Expected chain id, checked against the node's `eth_chainId`; `undefined`: whatever the node says. */
  chainId: number | undefined
  /** Deployment JSON; `undefined`: the addresses `@gridforge/contracts` ships for the chain. */
  deployment: string | undefined
  /** Retries of a failed RPC request (viem `http` transport `retryCount`). */
  retryCount: number
  /** Base delay between retries, ms (viem backs off exponentially from it). */
  retryDelayMs: number
}

export interface AccountConfig {
  /**
   * Web3 Secret Storage v3 key file (password in GRIDFORGE_KEYSTORE_PASSWORD);
   * `undefined`: the key comes from GRIDFORGE_PRIVATE_KEY. Never a key in the file.
   */
  keystore: string | undefined
}

export type StoreConfig =
  /** A directory (fsStore): for one machine, or a directory every client mounts. */
  | { kind: 'fs'; root: string; gateway: string | undefined }
  /** A Kubo node's RPC API (kuboStore). */
  | { kind: 'kubo'; url: string; gateway: string | undefined }

/** Container limits from the file; what is not set comes from the source or the agent's defaults. */
export type LimitsConfig = Partial<ResourceLimits>

export type RuntimeConfig =
  | {
      kind: 'docker'
      /** Unix socket of the engine; `undefined` with `host` unset: DOCKER_HOST, else /var/run/docker.sock. */
      socket: string | undefined
      /** Remote engine URL (`tcp://host:2375`, `https://host:2376`, `ssh://user@host`). */
      host: string | undefined
      limits: LimitsConfig
    }
  /** Tasks run as plain processes on the host: only with `allowUnisolated = true`. */
  | { kind: 'process'; allowUnisolated: true; limits: LimitsConfig }

export interface PolicyConfig {
  /** `undefined`: every source the provider is subscribed to. */
  sources: number[] | undefined
  /** Least pay per GPU-second, token units. */
  minPricePerGpuSecond: TokenAmount
  /** `undefined`: the number of GPUs, at least 1. */
  concurrency: number | undefined
  allowEgress: boolean
  maxInputBytes: number
  audits: AuditsConfig
}

/** `[policy.audits]`: which audits of other providers' results the agent joins. */
export interface AuditsConfig {
  enabled: boolean
  /** Only audits of tasks paying at least this (`maxPayment`), token units. */
  minPayment: TokenAmount
}

export interface AgentConfig {
  dataDir: string
  pollingIntervalMs: number
  rescanIntervalMs: number
  submitMarginSec: number
  logLevel: LogLevel
}

export interface WithdrawConfig {
  everyMs: number
  /** Withdraw only balances of at least this, token units. */
  minimum: TokenAmount
}

/** `[leases]`: which leases the agent takes and where its lease gateway listens. */
export interface LeasesConfig {
  enabled: boolean
  /** Sources leased out; `undefined`: the [policy] sources, else every subscribed one. */
  sources: number[] | undefined
  /** Least price of an hour of lease, token units. */
  minPricePerHour: TokenAmount
  /** Largest penalty a lease may name, seconds of its price. */
  maxPenaltySec: number
  maxConcurrent: number
  /** Milliseconds between redemptions of a lease's latest acknowledgement. */
  redeemEveryMs: number
  /**
   * Where the gateway listens (`host`, `port`), the host renters reach (`<leaseId>.<publicHost>`),
   * and who proxies their requests (`dataPath`; nginx's paths where they are not Debian's).
   */
  gateway: {
    host: string
    port: number
    publicHost: string | undefined
    dataPath: 'auto' | 'nginx' | 'node'
    nginxBinary: string | undefined
    njsModule: string | undefined
  }
}

export interface RegisterConfig {
  /** Stake to hold, token units; `undefined`: the registry's `minProviderStake`. */
  stake: TokenAmount | undefined
  /** Sources `register` subscribes to. */
  sources: number[]
}

/** Defaults of the optional fields, as written in the file (the template shows these). */
export const configDefaults = {
  rpc: 'http://127.0.0.1:8545',
  retryCount: 5,
  retryDelay: '1s',
  storeRoot: '~/.gridforge/store',
  dataDir: '~/.gridforge/provider',
  minPricePerGpuSecond: '0',
  maxInput: '1GiB',
  pollingInterval: '1s',
  rescanInterval: '30s',
  submitMargin: '30s',
  logLevel: 'info',
  withdrawMinimum: '0',
  auditMinPayment: '0',
  leaseMinPricePerHour: '0',
  leaseMaxPenalty: '1h',
  leaseRedeemEvery: '6h',
  leaseGatewayHost: '127.0.0.1',
  leaseGatewayPort: 8480,
} as const

/** How the schema resolves paths: against the file's directory and the home directory. */
export interface PathContext {
  baseDir: string
  home: string
}

/** A field parsed by `parse`; `expected` completes "expected …" when it returns `undefined`. */
function parsed<T>(expected: string, parse: (value: unknown) => T | undefined) {
  return z.unknown().transform((value, context): T => {
    const result = parse(value)
    if (result === undefined) {
      context.issues.push({ code: 'custom', message: `expected ${expected}`, input: value })
      return z.NEVER
    }
    return result
  })
}

const size = parsed('a size like "2GiB", "512MiB" or a number of bytes', parseSize)
const interval = parsed('an interval like "500ms", "30s", "1h" or "1h30m"', parseInterval)
const amount = parsed('a decimal token amount in quotes, like "100" or "0.0001"', (value) =>
  isTokenAmount(value) ? value : undefined,
)

const httpUrl = (what: string) =>
  parsed(`${what}: an http:// or https:// URL`, (value) => {
    if (typeof value !== 'string') return undefined
    try {
      const url = new URL(value)
      return url.protocol === 'http:' || url.protocol === 'https:' ? value : undefined
    } catch {
      return undefined
    }
  })

const dockerHost = parsed(
  'an engine URL like "tcp://host:2375", "https://host:2376" or "ssh://user@host"',
  (value) => {
    if (typeof value !== 'string') return undefined
    try {
      return ['tcp:', 'http:', 'https:', 'ssh:'].includes(new URL(value).protocol) ? value : undefined
    } catch {
      return undefined
    }
  },
)

const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .number({ error: `expected a whole number from ${min}` })
    .int({ error: `expected a whole number from ${min}` })
    .min(min, { error: `must be at least ${min}` })
    .max(max, { error: `must be at most ${max}` })

const sourceIds = z
  .array(wholeNumber(1, 2 ** 32 - 1), { error: 'expected a list of source ids, like [1, 4]' })
  .transform((ids) => [...new Set(ids)])

const bool = z.boolean({ error: 'expected true or false' })

/**
 * A table that refuses unknown keys and defaults to `{}`, parsed, so its
 * fields' defaults apply (every field of every table is optional).
 */
const table = <Shape extends z.core.$ZodLooseShape>(shape: Shape) => {
  const object = z.strictObject(shape, { error: 'expected a table ([section])' })
  return object.prefault({} as z.input<typeof object>)
}

/** A table without `kind` gets `fallback`: the common case needs no `kind` line. */
const withKind = (fallback: string) => (value: unknown) =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && !('kind' in value)
    ? { ...value, kind: fallback }
    : value

/** The schema of the file, resolving paths with `paths`. */
export function configFileSchema(paths: PathContext) {
  const file = parsed('a path in quotes', (value) =>
    typeof value === 'string' && value.trim() !== '' ? resolvePath(value, paths) : undefined,
  )

  const limits = table({
    memory: size.optional(),
    cpus: z
      .number({ error: 'expected a number of CPU cores, like 4 or 0.5' })
      .positive({ error: 'must be more than 0' })
      .optional(),
    pids: wholeNumber(1).optional(),
    tmp: size.optional(),
    maxOutput: size.optional(),
    maxLog: size.optional(),
  }).transform(
    (value): LimitsConfig =>
      Object.fromEntries(
        Object.entries({
          memoryBytes: value.memory,
          cpus: value.cpus,
          pids: value.pids,
          tmpBytes: value.tmp,
          maxOutputBytes: value.maxOutput,
          maxLogBytes: value.maxLog,
        }).filter(([, limit]) => limit !== undefined),
      ),
  )

  const store = z.preprocess(
    withKind('fs'),
    z.discriminatedUnion(
      'kind',
      [
        z.strictObject({
          kind: z.literal('fs'),
          root: file.default(resolvePath(configDefaults.storeRoot, paths)),
          gateway: httpUrl('a trustless gateway').optional(),
        }),
        z.strictObject({
          kind: z.literal('kubo'),
          url: httpUrl("the Kubo node's RPC API, e.g. http://127.0.0.1:5001"),
          gateway: httpUrl('a trustless gateway').optional(),
        }),
      ],
      { error: 'expected "fs" (a directory) or "kubo" (a Kubo node)' },
    ),
  )

  const runtime = z.preprocess(
    withKind('docker'),
    z
      .discriminatedUnion(
        'kind',
        [
          z.strictObject({
            kind: z.literal('docker'),
            socket: file.optional(),
            host: dockerHost.optional(),
            limits,
          }),
          z.strictObject({
            kind: z.literal('process'),
            allowUnisolated: z.literal(true, {
              error:
                'kind = "process" runs tasks unisolated on this host: set allowUnisolated = true to accept that (demos only), or use kind = "docker"',
            }),
            limits,
          }),
        ],
        { error: 'expected "docker" or "process"' },
      )
      .superRefine((value, context) => {
        if (value.kind === 'docker' && value.socket !== undefined && value.host !== undefined) {
          context.addIssue({ code: 'custom', path: ['host'], message: 'set socket or host, not both' })
        }
      }),
  )

  return z
    .strictObject(
      {
        chain: table({
          rpc: httpUrl('the JSON-RPC endpoint').default(configDefaults.rpc),
          chainId: wholeNumber(1).optional(),
          deployment: file.optional(),
          retryCount: wholeNumber(0, 100).default(configDefaults.retryCount),
          retryDelay: interval.default(parseInterval(configDefaults.retryDelay) ?? 0),
        }),
        account: table({ keystore: file.optional() }),
        store: store.prefault({}),
        runtime: runtime.prefault({}),
        policy: table({
          sources: sourceIds.optional(),
          minPricePerGpuSecond: amount.default(configDefaults.minPricePerGpuSecond),
          concurrency: wholeNumber(1).optional(),
          allowEgress: bool.default(false),
          maxInput: size.default(parseSize(configDefaults.maxInput) ?? 0),
          audits: table({
            enabled: bool.default(true),
            minPayment: amount.default(configDefaults.auditMinPayment),
          }),
        }),
        agent: table({
          dataDir: file.default(resolvePath(configDefaults.dataDir, paths)),
          pollingInterval: interval.default(parseInterval(configDefaults.pollingInterval) ?? 0),
          rescanInterval: interval.default(parseInterval(configDefaults.rescanInterval) ?? 0),
          submitMargin: interval.default(parseInterval(configDefaults.submitMargin) ?? 0),
          logLevel: z
            .enum(['debug', 'info', 'warn', 'error'], {
              error: 'expected "debug", "info", "warn" or "error"',
            })
            .default(configDefaults.logLevel),
        }),
        withdraw: table({
          every: interval.optional(),
          minimum: amount.default(configDefaults.withdrawMinimum),
        }),
        register: table({
          stake: amount.optional(),
          sources: sourceIds.optional(),
        }),
        leases: table({
          enabled: bool.default(false),
          sources: sourceIds.optional(),
          minPricePerHour: amount.default(configDefaults.leaseMinPricePerHour),
          maxPenalty: interval.default(parseInterval(configDefaults.leaseMaxPenalty) ?? 0),
          maxConcurrent: wholeNumber(1).default(1),
          redeemEvery: interval.default(parseInterval(configDefaults.leaseRedeemEvery) ?? 0),
          gatewayHost: z
            .string({ error: 'expected an address to listen on' })
            .default(configDefaults.leaseGatewayHost),
          gatewayPort: wholeNumber(0, 65_535).default(configDefaults.leaseGatewayPort),
          publicHost: z.string({ error: 'expected a host name like "leases.example.com"' }).optional(),
          gatewayDataPath: z
            .enum(['auto', 'nginx', 'node'], { error: 'expected "auto", "nginx" or "node"' })
            .default('auto'),
          nginxBinary: z.string({ error: 'expected the path of nginx' }).optional(),
          njsModule: z.string({ error: "expected the path of nginx's njs module (.so)" }).optional(),
        }),
      },
      { error: 'expected TOML tables' },
    )
    .superRefine((value, context) => {
      const intervals = [
        ['chain', 'retryDelay', value.chain.retryDelay, 0],
        ['agent', 'pollingInterval', value.agent.pollingInterval, 1],
        ['agent', 'rescanInterval', value.agent.rescanInterval, 1],
        ['withdraw', 'every', value.withdraw.every, 1],
      ] as const
      for (const [section, key, milliseconds, min] of intervals) {
        if (milliseconds !== undefined && milliseconds < min)
          context.addIssue({ code: 'custom', path: [section, key], message: 'must be longer than 0' })
      }
      if (value.agent.submitMargin % 1000 !== 0)
        context.addIssue({
          code: 'custom',
          path: ['agent', 'submitMargin'],
          message: 'expected whole seconds, like "30s"',
        })
    })
}

/** What the file schema gives, before it is shaped into {@link ProviderConfig}. */
export type ConfigFile = z.output<ReturnType<typeof configFileSchema>>

/** Shapes the parsed file into the resolved config. */
export function toProviderConfig(file: string, value: ConfigFile): ProviderConfig {
  const { chain, account, store, runtime, policy, agent, withdraw, register, leases } = value
  return {
    file,
    chain: {
      rpc: chain.rpc,
      chainId: chain.chainId,
      deployment: chain.deployment,
      retryCount: chain.retryCount,
      retryDelayMs: chain.retryDelay,
    },
    account: { keystore: account.keystore },
    store:
      store.kind === 'fs'
        ? { kind: 'fs', root: store.root, gateway: store.gateway }
        : { kind: 'kubo', url: store.url, gateway: store.gateway },
    runtime:
      runtime.kind === 'docker'
        ? { kind: 'docker', socket: runtime.socket, host: runtime.host, limits: runtime.limits }
        : { kind: 'process', allowUnisolated: true, limits: runtime.limits },
    policy: {
      sources: policy.sources,
      minPricePerGpuSecond: policy.minPricePerGpuSecond,
      concurrency: policy.concurrency,
      allowEgress: policy.allowEgress,
      maxInputBytes: policy.maxInput,
      audits: { enabled: policy.audits.enabled, minPayment: policy.audits.minPayment },
    },
    agent: {
      dataDir: agent.dataDir,
      pollingIntervalMs: agent.pollingInterval,
      rescanIntervalMs: agent.rescanInterval,
      submitMarginSec: agent.submitMargin / 1000,
      logLevel: agent.logLevel,
    },
    withdraw:
      withdraw.every === undefined ? undefined : { everyMs: withdraw.every, minimum: withdraw.minimum },
    register: { stake: register.stake, sources: register.sources ?? policy.sources ?? [] },
    leases: {
      enabled: leases.enabled,
      sources: leases.sources,
      minPricePerHour: leases.minPricePerHour,
      maxPenaltySec: Math.floor(leases.maxPenalty / 1000),
      maxConcurrent: leases.maxConcurrent,
      redeemEveryMs: leases.redeemEvery,
      gateway: {
        host: leases.gatewayHost,
        port: leases.gatewayPort,
        publicHost: leases.publicHost,
        dataPath: leases.gatewayDataPath,
        nginxBinary: leases.nginxBinary,
        njsModule: leases.njsModule,
      },
    },
  }
}

/** `~/x` under the home directory, a relative path under the file's directory. */
export function resolvePath(value: string, { baseDir, home }: PathContext): string {
  const trimmed = value.trim()
  if (trimmed === '~') return home
  if (trimmed.startsWith('~/')) return path.join(home, trimmed.slice(2))
  return path.resolve(baseDir, trimmed)
}
