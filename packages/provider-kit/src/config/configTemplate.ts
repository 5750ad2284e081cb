import { configDefaults } from './schema.js'

/** What `gridforge-provider init` knows when it writes the file; the rest is left at its default. */
export interface ConfigTemplateOptions {
  /** JSON-RPC endpoint (default http://127.0.0.1:8545). */
  rpc?: string | undefined
  /** Expected chain id. */
  chainId?: number | undefined
  /** Deployment JSON (default: the one `@gridforge/contracts` ships for the chain). */
  deployment?: string | undefined
  /** Encrypted key file; without it the key comes from GRIDFORGE_PRIVATE_KEY. */
  keystore?: string | undefined
  /** A directory (fs store) or a Kubo RPC URL (`http://…`). */
  store?: string | undefined
  dataDir?: string | undefined
  /** Sources to take tasks from and to subscribe to on `register`. */
  sources?: readonly number[] | undefined
  /** Stake to hold, token units. */
  stake?: string | undefined
}

/** A TOML basic string. */
function quote(value: string): string {
  return JSON.stringify(value)
}

/** `key = value` when set, `# key = fallback` (the default, commented) when not. */
function line(key: string, value: string | undefined, fallback: string): string {
  return value === undefined ? `# ${key} = ${fallback}` : `${key} = ${value}`
}

/**
 * The commented config file `gridforge-provider init` writes: every option,
 * what it does and its default. Options given in `options` are set; the rest
 * are commented out, showing the default (or an example where there is none).
 *
 * @example
 * await writeFile('provider.toml', configTemplate({ rpc: 'https://rpc.example', chainId: 8453 }), { flag: 'wx' })
 */
export function configTemplate(options: ConfigTemplateOptions = {}): string {
  const kubo = options.store !== undefined && /^https?:\/\//i.test(options.store)
  const sources = options.sources === undefined ? undefined : `[${options.sources.join(', ')}]`
  return `# gridforge-provider configuration (TOML).
#
# A line "# key = value" is an option left unset: the comment above it says
# what it does and its default. The value shown is that default where there is
# one, otherwise an example. Paths are relative to this file's directory; "~" is
# your home.
# Sizes: "512MiB", "2GiB", "1.5GB" or a number of bytes. Intervals: "500ms",
# "30s", "5m", "1h30m". Token amounts: decimal strings in token units, "0.5".
#
# The signing key is NEVER written here: set GRIDFORGE_PRIVATE_KEY, or point
# [account] keystore at an encrypted key file.

[chain]
# JSON-RPC endpoint of the chain (http or https).
${line('rpc', options.rpc === undefined ? undefined : quote(options.rpc), quote(configDefaults.rpc))}
# Chain id the node must report (eth_chainId); a mismatch stops the command.
# Default: whatever the node reports.
${line('chainId', options.chainId?.toString(), '31337')}
# Deployment JSON: { "chainId", "blockNumber", "contracts": { "token", "sources",
# "staking", "providers", "market" } }. Default: the addresses @gridforge/contracts
# ships for the chain id.
${line('deployment', options.deployment === undefined ? undefined : quote(options.deployment), quote('./deployment.json'))}
# Retries of a failed RPC request, and the first delay between them (it doubles).
# retryCount = ${configDefaults.retryCount}
# retryDelay = ${quote(configDefaults.retryDelay)}

[account]
# Web3 Secret Storage v3 key file (geth, Foundry's \`cast wallet\`, ethers, or
# \`gridforge wallet keystore create\`); its password comes from
# GRIDFORGE_KEYSTORE_PASSWORD (or is asked for on a terminal).
# Default: no file; the key comes from the GRIDFORGE_PRIVATE_KEY variable.
${line('keystore', options.keystore === undefined ? undefined : quote(options.keystore), quote('./key.json'))}

[store]
# Where task inputs are read and outputs, logs and receipts are written; clients
# must be able to read it.
#   kind = "fs"   a directory (root): one machine, or a directory every client mounts
#   kind = "kubo" a Kubo (IPFS) node's RPC API (url), e.g. url = "http://127.0.0.1:5001"
kind = ${quote(kubo ? 'kubo' : 'fs')}
# The directory (kind = "fs").
${kubo ? `#   root = ${quote(configDefaults.storeRoot)}` : line('root', options.store === undefined ? undefined : quote(options.store), quote(configDefaults.storeRoot))}
# The Kubo RPC API (kind = "kubo").
${kubo ? `url = ${quote(options.store ?? '')}` : '#   url = "http://127.0.0.1:5001"'}
# A trustless HTTP gateway to read content the store does not have (inputs a
# client stored elsewhere), e.g. "https://trustless-gateway.link". Default: none.
# gateway = "https://trustless-gateway.link"

[runtime]
# How tasks run:
#   kind = "docker"  containers: no network unless the source asks, read-only
#                    root, no capabilities, memory/CPU/pids limits (default)
#   kind = "process" plain processes on this host, NOT isolated: demos only
kind = "docker"
# With kind = "process" only: accept that tasks run unisolated on this host.
#   allowUnisolated = true
# Docker engine: a Unix socket path, or a remote engine URL ("tcp://host:2375",
# "https://host:2376", "ssh://user@host"); set one of them, not both.
# Default: DOCKER_HOST, else /var/run/docker.sock.
# socket = "/var/run/docker.sock"
#   host = "tcp://127.0.0.1:2375"

[runtime.limits]
# Limits of every task container. A source's own memory and CPUs apply unless
# these are lower. Default for memory and cpus: the source's resources.
# memory = "8GiB"
# cpus = 4
# Most processes in a container.
# pids = 512
# Size of the tmpfs at /tmp.
# tmp = "256MiB"
# Largest output collected; a task writing more is stopped.
# maxOutput = "1GiB"
# Logs kept per task; the rest is dropped.
# maxLog = "1MiB"

[policy]
# Which tasks to take.
# Only these source ids. Default: every source this provider is subscribed to.
${line('sources', sources, '[1, 2]')}
# Least pay per GPU-second (tasks without GPUs count as one GPU), token units.
# minPricePerGpuSecond = ${quote(configDefaults.minPricePerGpuSecond)}
# Most tasks at once. Default: the number of GPUs, at least 1.
# concurrency = 1
# Take sources that ask for outbound network.
# allowEgress = false
# Largest task input fetched.
# maxInput = ${quote(configDefaults.maxInput)}

[policy.audits]
# Audits of other providers' results: the market draws some single-replica results
# of deterministic sources for an audit, and providers of the source join to re-run
# the task. A seated auditor locks the task's collateral and is paid when its
# result stands (missing its commitment or reveal is slashed). Only tasks the
# policy above would take are audited.
# enabled = true
# Only audits of tasks paying at least this (their maxPayment), token units.
# minPayment = ${quote(configDefaults.auditMinPayment)}

[agent]
# The journal (what is in flight, so a restart resumes it) and work directories.
${line('dataDir', options.dataDir === undefined ? undefined : quote(options.dataDir), quote(configDefaults.dataDir))}
# How often to poll the chain for new tasks.
# pollingInterval = ${quote(configDefaults.pollingInterval)}
# How often to rescan every open task (catches reopened slots).
# rescanInterval = ${quote(configDefaults.rescanInterval)}
# Time kept before a claim's deadline to upload and submit the result (whole seconds).
# submitMargin = ${quote(configDefaults.submitMargin)}
# Log level of \`start\`: "debug", "info", "warn" or "error".
# logLevel = ${quote(configDefaults.logLevel)}

[withdraw]
# Move earnings from the market balance to the wallet on a schedule.
# Default: never (withdraw by hand with \`gridforge wallet withdraw\`).
# every = "1h"
# Only when the balance is at least this, token units.
# minimum = ${quote(configDefaults.withdrawMinimum)}

[leases]
# Rent this host's GPUs by the second (lease market): the agent accepts lease requests for
# the [policy] sources, runs each in its own container and serves it through the lease gateway.
# enabled = true
# Only these sources' leases (the interactive ones). Default: the [policy] sources.
# sources = [3]
# Least price of an hour of lease, token units.
# minPricePerHour = ${quote(configDefaults.leaseMinPricePerHour)}
# Largest penalty (seconds of the lease's price) a lease may name if this host goes offline.
# maxPenalty = ${quote(configDefaults.leaseMaxPenalty)}
# Most leases at once.
# maxConcurrent = 1
# How often to redeem each lease's latest usage acknowledgement (also at once on an offline report).
# redeemEvery = ${quote(configDefaults.leaseRedeemEvery)}
# Where the gateway listens; put a TLS proxy in front of it for renters.
# gatewayHost = ${quote(configDefaults.leaseGatewayHost)}
# gatewayPort = ${configDefaults.leaseGatewayPort}
# Who proxies renters' requests: "nginx" (nginx and its njs module in front of the
# gateway: apt-get install nginx-light libnginx-mod-http-js), "node" (the gateway
# alone), or "auto": nginx where it is installed.
# gatewayDataPath = "auto"
# nginxBinary = "/usr/sbin/nginx"
# njsModule = "/usr/lib/nginx/modules/ngx_http_js_module.so"
# The wildcard host renters reach: lease 7 is served at 7.<publicHost>.
# publicHost = "leases.example.com"

[register]
# What \`gridforge-provider register\` sets up (running it again changes only what differs).
# Stake to hold, token units; only the shortfall is staked. Default: the
# registry's minimum provider stake.
${line('stake', options.stake === undefined ? undefined : quote(options.stake), quote('100'))}
# Sources to subscribe to. Default: [policy] sources, else none.
# sources = [1, 2]
`
}
