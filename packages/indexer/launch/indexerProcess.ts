/**
 * The indexer as users run it: `ponder start` in a child process, on
 * 127.0.0.1 and a free port, with PGlite in a directory of the caller's or a
 * PostgreSQL database. Ponder has no programmatic start, so this spawns the
 * CLI and polls `/ready` (200 once the backfill is done) and `/status` (the
 * last block indexed). The tests, the benchmark and the local network
 * (`pnpm network`, `pnpm dashboard`, `pnpm demo`) start it this way.
 */
import { spawn } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePort, stopProcess } from '../../contracts/scripts/devnet.js'

const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export interface IndexerProcess extends AsyncDisposable {
  /** `http://127.0.0.1:<port>` */
  url: string
  /** The last lines the indexer printed (JSON logs). */
  output: string[]
  /** Waits until the indexer has indexed `blockNumber` (and is ready). */
  waitForBlock(blockNumber: bigint, timeoutMs?: number): Promise<void>
  stop(): Promise<void>
}

/**
 * Where the indexer keeps its tables: a PGlite directory, or a PostgreSQL database. The same one resumes
 * where the last run stopped.
 */
export type IndexerDatabase = { pgliteDir: string } | { databaseUrl: string }

export interface StartIndexerOptions {
  rpcUrl: string
  /** A deployment JSON file. */
  deploymentFile: string
  database: IndexerDatabase
  /** Default: a free port. */
  port?: number
  timeoutMs?: number
  /** Called with every line the indexer prints (JSON logs). */
  onOutput?: (line: string) => void
}

export async function startIndexer({
  rpcUrl,
  deploymentFile,
  database,
  port,
  timeoutMs = 60_000,
  onOutput,
}: StartIndexerOptions): Promise<IndexerProcess> {
  const chosenPort = port ?? (await freePort())
  const url = `http://127.0.0.1:${chosenPort}`
  const child = spawn(
    path.join(packageRoot, 'node_modules', '.bin', 'ponder'),
    [
      'start',
      '--hostname',
      '127.0.0.1',
      '--port',
      String(chosenPort),
      '--schema',
      'gridforge',
      '--log-format',
      'json',
    ],
    {
      cwd: packageRoot,
      env: {
        // The database asked for, whatever the shell's DATABASE_URL or DATABASE_SCHEMA.
        // (Ponder's PORT would also override --port.)
        ...Object.fromEntries(
          Object.entries(process.env).filter(
            ([name]) => !name.startsWith('DATABASE_') && name !== 'GRIDFORGE_PGLITE_DIR' && name !== 'PORT',
          ),
        ),
        GRIDFORGE_RPC_URL: rpcUrl,
        GRIDFORGE_DEPLOYMENT: deploymentFile,
        ...('pgliteDir' in database
          ? { GRIDFORGE_PGLITE_DIR: database.pgliteDir }
          : { DATABASE_URL: database.databaseUrl }),
        GRIDFORGE_POLLING_INTERVAL_MS: '100',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  const output: string[] = []
  // A chunk ends anywhere, a long line may span several: each stream keeps its unfinished line.
  const recorder = () => {
    let partial = ''
    return (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n')
      partial = lines.pop() ?? ''
      for (const line of lines) {
        if (line.trim() === '') continue
        output.push(line)
        if (output.length > 300) output.shift()
        onOutput?.(line)
      }
    }
  }
  child.stdout?.on('data', recorder())
  child.stderr?.on('data', recorder())

  // Ponder takes longer than the devnet to shut down (it flushes PGlite).
  const stop = () => stopProcess(child, 10_000)
  const waitForBlock = async (blockNumber: bigint, waitMs = timeoutMs) => {
    const started = Date.now()
    for (;;) {
      if (child.exitCode !== null)
        throw new Error(`indexer exited with ${child.exitCode}:\n${output.slice(-40).join('\n')}`)
      const indexed = await indexedBlock(url)
      if (indexed !== undefined && indexed >= blockNumber) return
      if (Date.now() - started > waitMs)
        throw new Error(
          `indexer: block ${blockNumber} not indexed after ${waitMs} ms (at ${indexed}):\n${output.slice(-40).join('\n')}`,
        )
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  try {
    await waitForBlock(0n)
  } catch (error) {
    await stop()
    throw error
  }
  return { url, output, waitForBlock, stop, [Symbol.asyncDispose]: stop }
}

/** The last block the indexer indexed, once it is ready; undefined before. */
async function indexedBlock(url: string): Promise<bigint | undefined> {
  try {
    const ready = await fetch(`${url}/ready`)
    if (ready.status !== 200) return undefined
    const status = (await (await fetch(`${url}/status`)).json()) as Record<
      string,
      { block?: { number: number } }
    >
    const number = status.gridforge?.block?.number
    return number === undefined ? undefined : BigInt(number)
  } catch {
    return undefined
  }
}
