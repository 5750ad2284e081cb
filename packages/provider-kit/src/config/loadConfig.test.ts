import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigInvalidError, ConfigNotFoundError, ConfigSyntaxError } from './errors.js'
import { loadConfig, parseConfig } from './loadConfig.js'

const file = '/etc/gridforge/provider.toml'
const home = '/home/provider'
const parseText = (text: string) => parseConfig(text, { file, home })

/** The fields a config error names, as `path: message`. */
function fieldsOf(text: string): string[] {
  try {
    parseText(text)
  } catch (error) {
    if (error instanceof ConfigInvalidError)
      return error.fields.map((field) => `${field.path}: ${field.message}`)
    throw error
  }
  throw new Error('the config was accepted')
}

describe('parseConfig', () => {
  it('fills in every default for an empty file', () => {
    expect(parseText('')).toEqual({
      file,
      chain: {
        rpc: 'http://127.0.0.1:8545',
        chainId: undefined,
        deployment: undefined,
        retryCount: 5,
        retryDelayMs: 1000,
      },
      account: { keystore: undefined },
      store: { kind: 'fs', root: '/home/provider/.gridforge/store', gateway: undefined },
      runtime: { kind: 'docker', socket: undefined, host: undefined, limits: {} },
      policy: {
        sources: undefined,
        minPricePerGpuSecond: '0',
        concurrency: undefined,
        allowEgress: false,
        maxInputBytes: 1024 ** 3,
        audits: { enabled: true, minPayment: '0' },
      },
      agent: {
        dataDir: '/home/provider/.gridforge/provider',
        pollingIntervalMs: 1000,
        rescanIntervalMs: 30_000,
        submitMarginSec: 30,
        logLevel: 'info',
      },
      withdraw: undefined,
      register: { stake: undefined, sources: [] },
      leases: {
        enabled: false,
        sources: undefined,
        minPricePerHour: '0',
        maxPenaltySec: 3_600,
        maxConcurrent: 1,
        redeemEveryMs: 6 * 3_600_000,
        gateway: {
          host: '127.0.0.1',
          port: 8480,
          publicHost: undefined,
          dataPath: 'auto',
          nginxBinary: undefined,
          njsModule: undefined,
        },
      },
    })
  })

  it('leases out only the [leases] sources when it names them', () => {
    const config = parseText(`
[chain]
chainId = 31337

[policy]
sources = [1, 2, 3]

[leases]
enabled = true
sources = [3]
`)
    expect(config.policy.sources).toEqual([1, 2, 3])
    expect(config.leases).toMatchObject({ enabled: true, sources: [3] })
  })

  it("takes the lease gateway's data path and nginx's paths", () => {
    const config = parseText(`
[leases]
gatewayDataPath = "nginx"
nginxBinary = "/opt/nginx/sbin/nginx"
njsModule = "/opt/nginx/modules/ngx_http_js_module.so"
`)
    expect(config.leases.gateway).toMatchObject({
      dataPath: 'nginx',
      nginxBinary: '/opt/nginx/sbin/nginx',
      njsModule: '/opt/nginx/modules/ngx_http_js_module.so',
    })
    expect(fieldsOf('[leases]\ngatewayDataPath = "envoy"\n')).toEqual([
      'leases.gatewayDataPath: expected "auto", "nginx" or "node"',
    ])
  })

  it('resolves sizes, intervals and paths', () => {
    const config = parseText(`
[chain]
rpc = "https://rpc.example/v1"
chainId = 8453
deployment = "deployments/base.json"
retryDelay = "250ms"

[account]
keystore = "~/keys/provider.json"

[store]
kind = "kubo"
url = "http://127.0.0.1:5001"
gateway = "https://trustless-gateway.link"

[runtime]
socket = "/run/user/1000/docker.sock"

[runtime.limits]
memory = "2GiB"
cpus = 1.5
pids = 256
tmp = "64MiB"
maxOutput = "1.5GB"
maxLog = 4096

[policy]
sources = [3, 1, 3]
minPricePerGpuSecond = "0.0001"
concurrency = 2
allowEgress = true
maxInput = "512MiB"

[policy.audits]
enabled = false
minPayment = "0.5"

[agent]
dataDir = "data"
pollingInterval = "2s"
rescanInterval = "1m30s"
submitMargin = "1m"
logLevel = "debug"

[withdraw]
every = "1h"
minimum = "10"

[register]
stake = "250"
`)
    expect(config.chain).toEqual({
      rpc: 'https://rpc.example/v1',
      chainId: 8453,
      deployment: '/etc/gridforge/deployments/base.json',
      retryCount: 5,
      retryDelayMs: 250,
    })
    expect(config.account.keystore).toBe('/home/provider/keys/provider.json')
    expect(config.store).toEqual({
      kind: 'kubo',
      url: 'http://127.0.0.1:5001',
      gateway: 'https://trustless-gateway.link',
    })
    expect(config.runtime).toEqual({
      kind: 'docker',
      socket: '/run/user/1000/docker.sock',
      host: undefined,
      limits: {
        memoryBytes: 2 * 1024 ** 3,
        cpus: 1.5,
        pids: 256,
        tmpBytes: 64 * 1024 ** 2,
        maxOutputBytes: 1_500_000_000,
        maxLogBytes: 4096,
      },
    })
    expect(config.policy).toEqual({
      sources: [3, 1],
      minPricePerGpuSecond: '0.0001',
      concurrency: 2,
      allowEgress: true,
      maxInputBytes: 512 * 1024 ** 2,
      audits: { enabled: false, minPayment: '0.5' },
    })
    expect(config.agent).toEqual({
      dataDir: '/etc/gridforge/data',
      pollingIntervalMs: 2000,
      rescanIntervalMs: 90_000,
      submitMarginSec: 60,
      logLevel: 'debug',
    })
    expect(config.withdraw).toEqual({ everyMs: 3_600_000, minimum: '10' })
    // register.sources defaults to the policy's sources.
    expect(config.register).toEqual({ stake: '250', sources: [3, 1] })
  })

  it('takes the process runtime only with allowUnisolated = true', () => {
    expect(fieldsOf('[runtime]\nkind = "process"\n')).toEqual([
      'runtime.allowUnisolated: kind = "process" runs tasks unisolated on this host: set allowUnisolated = true to accept that (demos only), or use kind = "docker"',
    ])
    expect(fieldsOf('[runtime]\nkind = "process"\nallowUnisolated = false\n')).toHaveLength(1)
    expect(parseText('[runtime]\nkind = "process"\nallowUnisolated = true\n').runtime).toEqual({
      kind: 'process',
      allowUnisolated: true,
      limits: {},
    })
  })

  it('names every bad field with what it expects', () => {
    const fields = fieldsOf(`
[chain]
rpc = "ws://127.0.0.1:8545"
chainId = 0

[store]
kind = "s3"

[runtime.limits]
memory = "lots"
cpus = 0
pids = 1.5

[policy]
sources = ["one"]
minPricePerGpuSecond = 0.5
allowEgress = "yes"

[agent]
pollingInterval = "1 second"
logLevel = "verbose"

[register]
stake = "-1"
`)
    expect(fields).toEqual([
      'chain.rpc: expected the JSON-RPC endpoint: an http:// or https:// URL',
      'chain.chainId: must be at least 1',
      'store.kind: expected "fs" (a directory) or "kubo" (a Kubo node)',
      'runtime.limits.memory: expected a size like "2GiB", "512MiB" or a number of bytes',
      'runtime.limits.cpus: must be more than 0',
      'runtime.limits.pids: expected a whole number from 1',
      'policy.sources.0: expected a whole number from 1',
      'policy.minPricePerGpuSecond: expected a decimal token amount in quotes, like "100" or "0.0001"',
      'policy.allowEgress: expected true or false',
      'agent.pollingInterval: expected an interval like "500ms", "30s", "1h" or "1h30m"',
      'agent.logLevel: expected "debug", "info", "warn" or "error"',
      'register.stake: expected a decimal token amount in quotes, like "100" or "0.0001"',
    ])
  })

  it('checks fields against each other once each is valid', () => {
    expect(fieldsOf('[runtime]\nsocket = "/s"\nhost = "tcp://h:2375"\n')).toEqual([
      'runtime.host: set socket or host, not both',
    ])
    expect(fieldsOf('[withdraw]\nevery = "0s"\n[agent]\nsubmitMargin = "1500ms"\n')).toEqual([
      'withdraw.every: must be longer than 0',
      'agent.submitMargin: expected whole seconds, like "30s"',
    ])
  })

  it('refuses unknown sections and options (typos)', () => {
    expect(fieldsOf('[chain]\nrcp = "http://x"\n[polcy]\nsources = [1]\n')).toEqual([
      'chain.rcp: unknown option in [chain] (a typo? `gridforge-provider init --config <new file>` lists every option)',
      'polcy: unknown section: the sections are [chain], [account], [store], [runtime], [runtime.limits], [policy], [policy.audits], [agent], [withdraw] and [register]',
    ])
  })

  it('refuses a key in the file without repeating it', () => {
    const key = `0x${'ab'.repeat(32)}`
    for (const text of [
      `[account]\nprivateKey = "${key}"\n`,
      `[account]\nkeystore = "${key}"\n`,
      `[chain]\nrpc = "${key.slice(2)}"\n`,
    ]) {
      const error = (() => {
        try {
          parseText(text)
        } catch (error) {
          return error
        }
      })()
      expect(error).toBeInstanceOf(ConfigInvalidError)
      const message = (error as ConfigInvalidError).message
      expect(message).toMatch(/never/)
      expect(message.toLowerCase()).not.toContain('ab'.repeat(32))
    }
  })

  it('reports TOML syntax errors with the line, never the line itself', () => {
    const key = 'cd'.repeat(32)
    let error: unknown
    try {
      parseText(`[chain]\nrpc = "http://x"\nsecret = 0x${key}\n`)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(ConfigSyntaxError)
    expect((error as ConfigSyntaxError).line).toBe(3)
    expect((error as ConfigSyntaxError).shortMessage).toMatch(
      /^\/etc\/gridforge\/provider\.toml:3:\d+: not valid TOML/,
    )
    expect((error as Error).message).not.toContain(key)
  })
})

describe('loadConfig', () => {
  let directory: string
  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'provider-config-'))
  })
  afterAll(() => rm(directory, { recursive: true, force: true }))

  it('reads a file and resolves paths against its directory', async () => {
    const file = path.join(directory, 'provider.toml')
    await writeFile(file, '[agent]\ndataDir = "./state"\n')
    const config = await loadConfig(file, { home })
    expect(config.file).toBe(file)
    expect(config.agent.dataDir).toBe(path.join(directory, 'state'))
  })

  it('says how to create a missing file', async () => {
    const missing = path.join(directory, 'missing.toml')
    const error = await loadConfig(missing).catch((error: unknown) => error)
    expect(error).toBeInstanceOf(ConfigNotFoundError)
    expect((error as ConfigNotFoundError).metaMessages.join('\n')).toContain(
      `gridforge-provider init --config ${missing}`,
    )
  })
})
