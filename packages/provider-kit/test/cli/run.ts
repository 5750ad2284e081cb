/**
 * Runs the BUILT `gridforge-provider` bin (packages/provider-kit/dist/cli.js)
 * as a child process, as providers run it. When dist/cli.js is older than the
 * sources it is rebuilt once (the CLI entry of tsup.config.ts only, under a
 * lock so that parallel test files do not build at the same time).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { erc20Abi, type Hex, parseEther, parseUnits } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { deployerClient, deployment, testClient } from '../../../sdk/test/chain.js'

export const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const binPath = path.join(packageRoot, 'dist', 'cli.js')

async function newestSource(directory: string): Promise<number> {
  let newest = 0
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const file = path.join(directory, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, await newestSource(file))
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
      newest = Math.max(newest, (await stat(file)).mtimeMs)
    }
  }
  return newest
}

async function builtAt(): Promise<number | undefined> {
  return stat(binPath).then(
    (stats) => stats.mtimeMs,
    () => undefined,
  )
}

/** Builds only the CLI entry of tsup.config.ts (the library build cleans dist/ and takes longer). */
function buildCli(): Promise<void> {
  const script = [
    "const { build } = await import('tsup')",
    "const configs = [(await import('./tsup.config.ts')).default].flat()",
    "const cli = configs.find((config) => JSON.stringify(config.entry).includes('src/cli/index.ts'))",
    "if (cli === undefined) throw new Error('tsup.config.ts has no src/cli/index.ts entry')",
    'await build({ ...cli, silent: true })',
  ].join('\n')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: packageRoot,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString()
    })
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`tsup exited ${code}: ${stderr}`)),
    )
  })
}

let ready: Promise<void> | undefined

/** Makes sure dist/cli.js exists and is not older than src/; call in a beforeAll. */
export function ensureBuilt(): Promise<void> {
  ready ??= (async () => {
    const sources = await newestSource(path.join(packageRoot, 'src'))
    const built = await builtAt()
    if (built !== undefined && built >= sources) return
    const lock = path.join(packageRoot, 'dist', '.cli-build-lock')
    await mkdir(path.dirname(lock), { recursive: true })
    const deadline = Date.now() + 120_000
    for (;;) {
      try {
        await mkdir(lock)
        break
      } catch {
        if (Date.now() > deadline)
          throw new Error(`timed out waiting for ${lock}; remove it if no build is running`)
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
    }
    try {
      const again = await builtAt()
      if (again !== undefined && again >= sources) return
      await buildCli()
    } catch (error) {
      throw new Error(
        `packages/provider-kit/dist/cli.js is missing or older than src/ and could not be built (${String(error)}). ` +
          'Build it with `pnpm --filter @gridforge/provider-kit build`.',
      )
    } finally {
      await rm(lock, { recursive: true, force: true })
    }
  })()
  return ready
}

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliRun {
  done: Promise<CliResult>
  /** Resolves with the first stderr match of `pattern` (rejects if the process exits first). */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>
  child: ChildProcess
}

export interface CliOptions {
  /** Added to a clean environment (PATH, HOME); GRIDFORGE_* and DOCKER_HOST of the parent are not passed. */
  env?: Record<string, string | undefined>
  /** Killed after this many ms (default 60 s). */
  timeout?: number
  cwd?: string
}

/** Starts `node dist/cli.js …args`. */
export function startCli(args: readonly string[], options: CliOptions = {}): CliRun {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: tmpdir() }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name]
    else env[name] = value
  }
  const child = spawn(process.execPath, [binPath, ...args], {
    env,
    cwd: options.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  const watchers: {
    pattern: RegExp
    resolve: (match: RegExpMatchArray) => void
    reject: (error: Error) => void
  }[] = []
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
    for (const watcher of [...watchers]) {
      const match = stderr.match(watcher.pattern)
      if (match !== null) {
        watchers.splice(watchers.indexOf(watcher), 1)
        watcher.resolve(match)
      }
    }
  })
  child.stdin?.end()
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 60_000)
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      for (const watcher of watchers.splice(0)) {
        watcher.reject(
          new Error(`gridforge-provider exited (${code}) before printing ${watcher.pattern}:\n${stderr}`),
        )
      }
      resolve({ code, signal, stdout, stderr })
    })
  })
  return {
    done,
    child,
    waitForStderr(pattern) {
      const match = stderr.match(pattern)
      if (match !== null) return Promise.resolve(match)
      return new Promise((resolve, reject) => watchers.push({ pattern, resolve, reject }))
    },
  }
}

/** Runs `gridforge-provider …args` to completion. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return startCli(args, options).done
}

/** A new account with `eth` ETH and `grid` GRID; its key, for GRIDFORGE_PRIVATE_KEY. */
export async function newAccount({ grid = '1000', eth = '100' }: { grid?: string; eth?: string } = {}) {
  const key = generatePrivateKey()
  const account = privateKeyToAccount(key)
  await testClient().setBalance({ address: account.address, value: parseEther(eth) })
  if (grid !== '0') {
    const deployer = deployerClient()
    const hash = await deployer.writeContract({
      address: deployment().contracts.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [account.address, parseUnits(grid, 18)],
    })
    await deployer.waitForTransactionReceipt({ hash })
  }
  return { key, account, address: account.address }
}

/**
 * A workspace for one test: a temp directory with the devnet's deployment as
 * a file, a store and a data directory, and `write(toml)` for its config.
 */
export async function workspace() {
  const root = await mkdtemp(path.join(tmpdir(), 'gridforge-provider-cli-'))
  const deploymentFile = path.join(root, 'deployment.json')
  await writeFile(deploymentFile, JSON.stringify(deployment()))
  const config = path.join(root, 'provider.toml')
  const store = path.join(root, 'store')
  const dataDir = path.join(root, 'data')
  return {
    root,
    config,
    store,
    dataDir,
    deploymentFile,
    /** Writes `provider.toml` (or `file`) with `text`. */
    write: (text: string, file = config) => writeFile(file, text),
    cleanup: () => rm(root, { recursive: true, force: true }),
  }
}

/** A config for the devnet: its RPC and deployment, a store and data directory in the workspace. */
export function devnetConfig(
  space: { deploymentFile: string; store: string; dataDir: string },
  rpcUrl: string,
  extra = '',
): string {
  return `[chain]
rpc = "${rpcUrl}"
chainId = 31337
deployment = "${space.deploymentFile}"

[store]
root = "${space.store}"

[agent]
dataDir = "${space.dataDir}"
pollingInterval = "200ms"

${extra}`
}

/** Hex of a key without 0x, lowercase: what must never appear in output. */
export function bareKey(key: Hex): string {
  return key.slice(2).toLowerCase()
}
