/**
 * The CLI's journal of the leases it opened: one file per lease under
 * `~/.gridforge/leases` (or GRIDFORGE_LEASES), mode 0600, written atomically
 * (temporary file, fsync, rename) before each step that depends on it. It
 * holds the lease's session key, which signs usage acknowledgements: lost, the
 * renter can no longer acknowledge service and the provider may end the lease
 * for silence. It holds no funds.
 */
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { homedir } from 'node:os'
import path from 'node:path'
import type { Address, Hex } from 'viem'
import type { SignedUsage } from '../leases/usage.js'

/** What the CLI keeps about a lease it opened. */
export interface LeaseJournalEntry {
  chainId: number
  leaseMarket: Address
  /** Unset until the request is mined (the key is journaled before it is sent). */
  leaseId?: string | undefined
  /** The session key (ackSigner) of the renter's software: secret. */
  sessionKey: Hex
  gatewayUrl?: string | undefined
  /** The gateway session token and when it expires (ISO); secret. */
  token?: string | undefined
  tokenExpiresAt?: string | undefined
  /** The latest acknowledgement the gateway accepted. */
  lastAck?: { servedSec: number; at: number; signature: Hex } | undefined
}

/** The journal directory: GRIDFORGE_LEASES, else ~/.gridforge/leases. */
export function leaseJournalDir(env: Record<string, string | undefined>): string {
  return env.GRIDFORGE_LEASES ?? path.join(homedir(), '.gridforge', 'leases')
}

/** The file of a lease (or, before it has an id, of its session key's address). */
export function leaseJournalFile(
  dir: string,
  entry: { chainId: number; leaseMarket: Address },
  name: string,
): string {
  return path.join(dir, `${entry.chainId}-${entry.leaseMarket.toLowerCase()}-${name}.json`)
}

/** Writes `entry` to `file` atomically, readable by the owner only. */
export async function writeLeaseJournal(file: string, entry: LeaseJournalEntry): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  const handle = await open(temporary, 'w', 0o600)
  try {
    await handle.writeFile(`${JSON.stringify(entry, null, 2)}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temporary, file)
}

/** The journal entry in `file`, or `undefined` when there is none. */
export async function readLeaseJournal(file: string): Promise<LeaseJournalEntry | undefined> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as LeaseJournalEntry
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

/** Removes a journal file (a pending entry once its lease has its own). */
export async function removeLeaseJournal(file: string): Promise<void> {
  await rm(file, { force: true })
}

/** The acknowledgement as the journal keeps it. */
export function journalAck({ servedSec, at, signature }: SignedUsage): LeaseJournalEntry['lastAck'] {
  return { servedSec, at, signature }
}
