import { mkdir, readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Hex } from 'viem'
import { writeDurably } from '../journal.js'

/**
 * Where a lease is, for this provider:
 * - `accepting`: journaled before `acceptLease` is sent;
 * - `starting`: accepted; its container is started and served;
 * - `serving`: the gateway serves it; acknowledgements are redeemed on a schedule, the lease ended for silence;
 * - `ending`: it ended: its container is stopped, the last acknowledgement redeemed, the lease settled;
 * - `done`: settled, or not ours (another provider accepted, the request expired).
 */
export type LeaseStepName = 'accepting' | 'starting' | 'serving' | 'ending' | 'done'

/** A usage acknowledgement as journaled. */
export interface JournaledAck {
  servedSec: number
  at: number
  signature: Hex
}

/** One lease's journal entry: its state. */
export interface LeaseEntry {
  version: 1
  leaseId: string
  step: LeaseStepName
  sourceId: number
  /** The price accepted at, token base units per second. */
  pricePerSec: string
  /**
   * The GPUs held for the lease from its acceptance until its container is gone (device ids from the
   * agent's pool, shared with tasks): its container is pinned to them, and a restart holds them again.
   */
  gpus?: string[] | undefined
  /** The lease's container, once started. */
  containerId?: string | undefined
  /** The latest acknowledgement the gateway accepted. */
  lastAck?: JournaledAck | undefined
  /** `at` of the latest acknowledgement this provider redeemed. */
  redeemedAt?: number | undefined
  /** When it last redeemed (ms since the epoch): the schedule's start. */
  redeemedMs?: number | undefined
  /** Why it is `done`. */
  outcome?: string | undefined
  txHash?: Hex | undefined
}

/** The leases' journal: one file per lease, each written atomically and fsynced before the step it records. */
export interface LeaseJournal {
  list(): Promise<LeaseEntry[]>
  write(entry: LeaseEntry): Promise<void>
}

export async function openLeaseJournal(directory: string): Promise<LeaseJournal> {
  await mkdir(directory, { recursive: true })
  const path = (leaseId: string) => join(directory, `${leaseId}.json`)
  return {
    async list() {
      const entries: LeaseEntry[] = []
      for (const name of await readdir(directory)) {
        if (!/^\d+\.json$/.test(name)) continue
        try {
          entries.push(JSON.parse(await readFile(join(directory, name), 'utf8')) as LeaseEntry)
        } catch {
          // A file cut short by a crash before its rename never exists: writeDurably renames whole files.
        }
      }
      return entries.sort((a, b) => (BigInt(a.leaseId) < BigInt(b.leaseId) ? -1 : 1))
    },
    write: (entry) => writeDurably(path(entry.leaseId), `${JSON.stringify(entry)}\n`),
  }
}
