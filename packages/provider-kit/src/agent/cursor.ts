import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { writeDurably } from './journal.js'

/** Where the agent's reading of the market stopped, and the tasks it was keeping an eye on then. */
export interface Cursor {
  /** The last block whose events were acted on. */
  block: bigint
  /** Tasks not yet final that the agent may still take. */
  tasks: bigint[]
}

interface CursorFile {
  version: 1
  /** `chainId:market`: a data directory reused on another deployment starts afresh. */
  market: string
  block: string
  tasks: string[]
}

/**
 * Reads the journaled cursor of the market `market` (`chainId:address`) in
 * `dataDir`, or `undefined` on a first start (or another deployment's cursor).
 */
export async function readCursor(dataDir: string, market: string): Promise<Cursor | undefined> {
  let file: CursorFile
  try {
    file = JSON.parse(await readFile(join(dataDir, 'cursor.json'), 'utf8')) as CursorFile
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return undefined
    throw error
  }
  if (file.version !== 1 || file.market !== market.toLowerCase()) return undefined
  return { block: BigInt(file.block), tasks: file.tasks.map(BigInt) }
}

/** Journals the cursor (atomically: a crash keeps the old one or the new one). */
export async function writeCursor(dataDir: string, market: string, cursor: Cursor): Promise<void> {
  const file: CursorFile = {
    version: 1,
    market: market.toLowerCase(),
    block: cursor.block.toString(),
    tasks: cursor.tasks.map(String),
  }
  await writeDurably(join(dataDir, 'cursor.json'), `${JSON.stringify(file)}\n`)
}
