/**
 * A real PostgreSQL server for the indexer's tests and benchmark: the
 * repository's scripts/postgres.sh, in a directory of its own under the
 * system's temp directory (not the caller's: as root the server runs as
 * another user, who must reach it), on 127.0.0.1 and a free port.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
const script = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/postgres.sh')

/** scripts/postgres.sh's exit status when the server binaries are missing and cannot be installed here. */
const cannotInstall = 3

export interface PostgresServer extends AsyncDisposable {
  /** `postgres://gridforge:…@127.0.0.1:<port>/<database>` */
  databaseUrl: string
  /** The server's directory (cluster, password, log); removed by `stop`. */
  dir: string
  /** Stops the server and removes its directory. */
  stop(): Promise<void>
}

/** No PostgreSQL here: the server binaries are missing and this user cannot install them. */
export class PostgresUnavailableError extends Error {
  override name = 'PostgresUnavailableError' as const
}

export type PostgresAvailability = { available: true } | { available: false; reason: string }

/**
 * Whether a PostgreSQL server can run here: brings the server binaries (from apt, as root) when missing.
 * Outside CI a suite may skip on `available: false`; in CI (`CI=true`) it must not.
 */
export async function postgresAvailability(): Promise<PostgresAvailability> {
  try {
    await run('bash', [script, 'install'], { timeout: 600_000 })
    return { available: true }
  } catch (error) {
    const { code, stderr } = error as { code?: number; stderr?: string }
    if (code !== cannotInstall) throw error
    return {
      available: false,
      reason: (stderr ?? '').replaceAll('postgres: ', '').replaceAll('\n', ' ').trim(),
    }
  }
}

/**
 * Starts a server with a new cluster and database `database` (default `gridforge`).
 *
 * @throws {PostgresUnavailableError} when there are no server binaries and they cannot be installed.
 */
export async function startPostgres({ database }: { database?: string } = {}): Promise<PostgresServer> {
  const dir = await mkdtemp(path.join(tmpdir(), 'gridforge-postgres-'))
  const stop = async () => {
    await run('bash', [script, 'stop', '--dir', dir], { timeout: 120_000 })
    await rm(dir, { recursive: true, force: true })
  }
  let stdout: string
  try {
    ;({ stdout } = await run(
      'bash',
      [script, 'start', '--dir', dir, ...(database === undefined ? [] : ['--database', database])],
      { timeout: 600_000 },
    ))
  } catch (error) {
    await stop().catch(() => {})
    const { code, stderr } = error as { code?: number; stderr?: string }
    if (code === cannotInstall) throw new PostgresUnavailableError(stderr?.trim() ?? 'no PostgreSQL')
    throw new Error(`scripts/postgres.sh start failed (exit ${code}):\n${stderr ?? ''}`, { cause: error })
  }
  const databaseUrl = /^DATABASE_URL=(\S+)$/m.exec(stdout)?.[1]
  if (databaseUrl === undefined) {
    await stop()
    throw new Error(`scripts/postgres.sh start printed no DATABASE_URL: ${JSON.stringify(stdout)}`)
  }
  return { databaseUrl, dir, stop, [Symbol.asyncDispose]: stop }
}
