import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { access, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { NginxUnavailableError } from '../../errors.js'
import { type Logger, silentLogger } from '../../logger.js'
import type { LeaseDataPath, LeasePass } from '../LeaseDataPath.js'
import type { LeaseGateway } from '../leaseGateway.js'
import { followExchangeLog } from './exchangeLog.js'
import { hostPort, type NginxDataPathConfig, nginxConfig, nginxScript, passFolder } from './nginxConfig.js'

const run = promisify(execFile)

/** Where Debian's `nginx-light` and `libnginx-mod-http-js` put nginx and its njs module. */
export const nginxDefaults = {
  binary: '/usr/sbin/nginx',
  njsModule: '/usr/lib/nginx/modules/ngx_http_js_module.so',
} as const

export interface NginxDataPathOptions {
  /** nginx's own folder (created): its configuration, the njs script, the passes (mode 0600: they name sessions), logs. */
  dir: string
  /** Where nginx listens for renters (the gateway's `publicHost` says how they reach it). */
  hostname?: string | undefined
  port: number
  /** Paths of nginx and its njs module (default Debian's, {@link nginxDefaults}). */
  binary?: string | undefined
  njsModule?: string | undefined
  workerProcesses?: number | 'auto' | undefined
  logger?: Logger | undefined
}

/** The nginx data path of a lease gateway: create it, start the gateway with it, then {@link start} it. */
export interface NginxDataPath extends LeaseDataPath, AsyncDisposable {
  /** Where it listens, e.g. `http://127.0.0.1:8080` (behind a TLS proxy when the public scheme is https). */
  readonly url: string
  readonly port: number
  /** Starts nginx in front of `gateway` (which must have been started with this data path). */
  start(gateway: LeaseGateway): Promise<void>
  stop(): Promise<void>
}

/**
 * A native data path for the lease gateway: nginx, with a short njs check,
 * proxies a renter's plain HTTP requests straight to the lease's container,
 * and hands everything else (sign-in, acknowledgements, WebSockets, every
 * refusal) to the Node gateway behind it. The gateway stays the authority:
 * nginx proxies a lease only while it holds the gateway's pass for it (see
 * {@link LeasePass}: a small file per lease, renewed three times per lease check,
 * removed the moment the gateway would stop proxying it), and only for the
 * sessions the gateway verified (nginx holds no key). What nginx serves reaches the gateway's meter
 * through a log file (see `exchangeLog.ts`), within two seconds.
 *
 * Why: Node's HTTP stack costs a hop about as much as the service behind
 * it answers (a gateway-to-direct latency ratio near 1.8 here, 1.75 for a
 * bare Node HTTP proxy); nginx's costs a third of it (see docs/leases.md).
 * Needs nginx and its njs module ≥ 0.7 (Debian: `apt-get install nginx-light
 * libnginx-mod-http-js`).
 *
 * @example
 * const dataPath = await nginxDataPath({ dir, port: 8080 })
 * const gateway = await startLeaseGateway({ chainId, leaseMarket, authority, dataPath, publicHost: 'localhost:8080' })
 * await dataPath.start(gateway) // renters now reach http://7.localhost:8080
 */
export async function nginxDataPath(options: NginxDataPathOptions): Promise<NginxDataPath> {
  const logger = options.logger ?? silentLogger
  const binary = options.binary ?? nginxDefaults.binary
  const njsModule = options.njsModule ?? nginxDefaults.njsModule
  await assertNginx(binary, njsModule)
  const dir = path.resolve(options.dir)
  const passDir = path.join(dir, passFolder)
  const hostname = options.hostname ?? '127.0.0.1'
  const url = `http://${hostPort({ hostname, port: options.port })}`
  await stopLeftover(dir, logger)
  // Passes of an earlier run are not this run's: the gateway hands out its own.
  await rm(passDir, { recursive: true, force: true })
  await mkdir(path.join(dir, 'temp'), { recursive: true })
  await mkdir(passDir, { recursive: true, mode: 0o700 })

  const exchangeLog = path.join(dir, 'exchanges.log')
  // Exchanges of an earlier run were counted then (or are lost with that run's meter): not again.
  await rm(exchangeLog, { force: true })
  let following: { close(): Promise<void> } | undefined
  let nginx: ChildProcess | undefined
  let exited: Promise<void> = Promise.resolve()
  /** Writes are chained per lease: a pass taken back is never overwritten by an older one in flight. */
  const writes = new Map<bigint, Promise<void>>()

  function setPass(leaseId: bigint, pass: LeasePass | undefined) {
    const file = path.join(passDir, leaseId.toString())
    const write = async () => {
      if (pass === undefined) return rm(file, { force: true })
      const temporary = `${file}.${process.pid}.tmp`
      const now = Date.now()
      await writeFile(
        temporary,
        JSON.stringify({
          upstream: hostPort({ hostname: pass.upstream.host, port: pass.upstream.port }),
          until: now + pass.validMs,
          origin: pass.origin,
          cookieName: pass.cookieName,
          sessions: Object.fromEntries(pass.sessions.map(({ mac, validMs }) => [mac, now + validMs])),
        }),
        // It names the renter's sessions: for nginx's workers (the agent's user) alone.
        { mode: 0o600 },
      )
      // A rename replaces the pass at once: nginx reads the old one or the new one, never half of one.
      await rename(temporary, file)
    }
    const next = (writes.get(leaseId) ?? Promise.resolve()).then(write).catch((error: unknown) => {
      logger.warn('the nginx data path could not be given a lease pass', { leaseId, error })
    })
    writes.set(leaseId, next)
    void next.then(() => {
      if (writes.get(leaseId) === next) writes.delete(leaseId)
    })
  }

  async function stop() {
    // Taken first: its exit is then not reported as a crash.
    const child = nginx
    nginx = undefined
    if (child !== undefined && child.exitCode === null) {
      // QUIT: finish the requests in flight, then exit; TERM after five seconds.
      child.kill('SIGQUIT')
      const timer = setTimeout(() => child.kill('SIGTERM'), 5_000)
      await exited
      clearTimeout(timer)
    }
    await following?.close()
    following = undefined
    await Promise.all(writes.values())
    await rm(passDir, { recursive: true, force: true })
  }

  return {
    url,
    port: options.port,
    setPass,
    async start(gateway) {
      const gatewayUrl = new URL(gateway.url)
      const config: NginxDataPathConfig = {
        dir,
        njsModule,
        listen: { hostname, port: options.port },
        gateway: { hostname: gatewayUrl.hostname.replace(/^\[|\]$/g, ''), port: Number(gatewayUrl.port) },
        publicHost: gateway.publicHost,
        // As renters reach the gateway (a TLS proxy in front when https).
        publicScheme: gateway.leaseUrl(0n).startsWith('https:') ? 'https' : 'http',
        exchangeLog,
        // Started as root, nginx would run its workers as nobody, who cannot read the agent's files.
        user: process.getuid?.() === 0 ? 'root' : undefined,
        workerProcesses: options.workerProcesses,
      }
      await writeFile(path.join(dir, 'lease.js'), nginxScript(config))
      const conf = path.join(dir, 'nginx.conf')
      await writeFile(conf, nginxConfig(config))
      try {
        await run(binary, ['-t', '-q', '-p', dir, '-c', conf])
      } catch (error) {
        throw new NginxUnavailableError({
          reason: `its configuration was refused: ${(error as { stderr?: string }).stderr?.trim() || (error as Error).message}`,
        })
      }
      const child = spawn(binary, ['-p', dir, '-c', conf, '-g', 'daemon off;'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      })
      nginx = child
      let stderr = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr = (stderr + chunk.toString()).slice(-4_000)
      })
      exited = new Promise((resolve) => child.once('exit', () => resolve()))
      child.once('exit', (code, signal) => {
        if (nginx === child) logger.error('nginx (lease data path) exited', { code, signal, stderr })
      })
      const listening = await waitUntilListening(hostname, options.port, child)
      if (!listening) {
        await stop()
        throw new NginxUnavailableError({
          reason: `it did not start listening on ${hostname}:${options.port}: ${stderr.trim()}`,
        })
      }
      following = followExchangeLog({
        file: exchangeLog,
        onExchange: (exchange) => gateway.recordExchange(exchange),
        reopen: () => child.kill('SIGUSR1'),
        logger,
      })
      logger.info('lease data path (nginx) listening', { url, gateway: gateway.url })
    },
    stop,
    [Symbol.asyncDispose]: stop,
  }
}

/** Whether nginx and its njs module are installed where the options say (default Debian's paths). */
export async function nginxAvailable(
  options: { binary?: string | undefined; njsModule?: string | undefined } = {},
): Promise<boolean> {
  try {
    await assertNginx(options.binary ?? nginxDefaults.binary, options.njsModule ?? nginxDefaults.njsModule)
    return true
  } catch {
    return false
  }
}

async function assertNginx(binary: string, njsModule: string) {
  for (const [file, what] of [
    [binary, 'nginx'],
    [njsModule, "nginx's njs module"],
  ] as const) {
    try {
      await access(file)
    } catch {
      throw new NginxUnavailableError({ reason: `${what} is not at ${file}` })
    }
  }
}

/** An nginx of an earlier run of this folder (the agent was killed) would hold the port: it is stopped. */
async function stopLeftover(dir: string, logger: Logger) {
  const pid = Number((await readFile(path.join(dir, 'nginx.pid'), 'utf8').catch(() => '')).trim())
  if (!Number.isInteger(pid) || pid <= 0) return
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')
  if (!commandLine.includes('nginx') || !commandLine.includes(dir)) return
  logger.warn('stopping the nginx of an earlier run', { pid })
  process.kill(pid, 'SIGTERM')
  for (let i = 0; i < 50 && (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')) !== ''; i++)
    await new Promise((resolve) => setTimeout(resolve, 100))
}

/** Whether something accepts connections at `hostname:port` before `child` exits (10 s at most). */
async function waitUntilListening(hostname: string, port: number, child: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 200 && child.exitCode === null; i++) {
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect(port, hostname)
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (accepted) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return false
}
