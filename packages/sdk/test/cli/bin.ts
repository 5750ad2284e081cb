/**
 * Runs a package's BUILT CLI (`dist/cli.js`) as a child process, as users run
 * it: shared by the `gridforge` (SDK) and `gridforge-provider` (provider kit)
 * bin tests. When dist/cli.js is older than its sources it is rebuilt once
 * (the CLI entry of tsup.config.ts only, under a lock so that parallel test
 * files do not build at the same time); when it cannot be built the tests fail
 * saying how to build it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { generatePrivateKey } from 'viem/accounts'
import { fundedClient } from '../chain.js'

export interface CliResult {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
}

export interface CliRun {
  /** The process's exit. */
  done: Promise<CliResult>
  /** Resolves with the first stderr match of `pattern` (rejects if the process exits first). */
  waitForStderr(pattern: RegExp): Promise<RegExpMatchArray>
  child: ChildProcess
}

export interface CliOptions {
  /** Added to the bin's clean environment (PATH, HOME, …); GRIDFORGE_* of the parent is not passed. */
  env?: Record<string, string | undefined>
  /** Written to stdin, then closed. */
  stdin?: string
  /** Killed after this many ms (default 60 s). */
  timeout?: number
  cwd?: string
}

export interface CliBinParameters {
  /** The package directory (holds tsup.config.ts and dist/). */
  packageRoot: string
  /** The command's name, for messages. */
  name: string
  /** Directories whose `.ts` files the bundle is built from (default `<packageRoot>/src`). */
  sources?: readonly string[]
  /** The environment every run starts from. */
  env: () => Record<string, string>
}

/** The built bin of one package: `ensureBuilt` in a beforeAll, then `runCli` / `startCli`. */
export function cliBin({ packageRoot, name, sources, env: baseEnv }: CliBinParameters) {
  const binPath = path.join(packageRoot, 'dist', 'cli.js')
  const packageName = path.basename(packageRoot)
  const builtAt = () =>
    stat(binPath).then(
      (stats) => stats.mtimeMs,
      () => undefined,
    )

  let ready: Promise<void> | undefined
  /** Makes sure dist/cli.js exists and is not older than its sources. */
  const ensureBuilt = (): Promise<void> => {
    ready ??= (async () => {
      const newest = Math.max(
        ...(await Promise.all((sources ?? [path.join(packageRoot, 'src')]).map(newestSource))),
      )
      const built = await builtAt()
      if (built !== undefined && built >= newest) return
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
        if (again !== undefined && again >= newest) return
        await buildCli(packageRoot)
      } catch (error) {
        throw new Error(
          `packages/${packageName}/dist/cli.js is missing or older than its sources and could not be built (${String(error)}). ` +
            `Build it with \`pnpm --filter ./packages/${packageName} build\`.`,
        )
      } finally {
        await rm(lock, { recursive: true, force: true })
      }
    })()
    return ready
  }

  /** Starts `node dist/cli.js …args`. */
  const startCli = (args: readonly string[], options: CliOptions = {}): CliRun => {
    const env = baseEnv()
    for (const [variable, value] of Object.entries(options.env ?? {})) {
      if (value === undefined) delete env[variable]
      else env[variable] = value
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
    child.stdin?.end(options.stdin ?? '')
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeout ?? 60_000)
    const done = new Promise<CliResult>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (code, signal) => {
        clearTimeout(timer)
        for (const watcher of watchers.splice(0)) {
          watcher.reject(new Error(`${name} exited (${code}) before printing ${watcher.pattern}:\n${stderr}`))
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

  /** Runs the bin with `args` to completion. */
  const runCli = (args: readonly string[], options: CliOptions = {}): Promise<CliResult> =>
    startCli(args, options).done

  return { binPath, ensureBuilt, startCli, runCli }
}

/** A new account with `eth` ETH and `grid` GRID; its key, for GRIDFORGE_PRIVATE_KEY. */
export async function newAccount({ grid = '1000', eth = '100' }: { grid?: string; eth?: string } = {}) {
  const key = generatePrivateKey()
  const { account } = await fundedClient({ grid, eth, privateKey: key })
  return { key, account, address: account.address }
}

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

/** Builds only the CLI entry of tsup.config.ts (the library build cleans dist/ and takes longer). */
function buildCli(packageRoot: string): Promise<void> {
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

/** Hex of a key without 0x, lowercase: what must never appear in output. */
export function bareKey(key: `0x${string}`): string {
  return key.slice(2).toLowerCase()
}
