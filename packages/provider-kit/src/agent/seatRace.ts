import { type Deployment, getAudit } from '@gridforge/sdk'
import type { Account, Chain, Client, Transport } from 'viem'

/**
 * The race for the seats of a task with replicas > 1 (the market's `claimTask`): from two blocks after
 * the submission until `end`, and while the hash of block `seedBlock + 1` that seeds the tickets can
 * still be read (256 blocks), each claim draws a stake-weighted ticket and a better one takes the worst
 * seat (`ClaimReplaced`). A seat won in the race is final, and its time starts, at `end + 1`. After the
 * race, free seats are first come.
 */
export interface SeatRace {
  /** Chain seconds: the race's last second (`getAudit`'s round 0 `joinDeadline`). */
  end: number
  /** The submission's block: tickets are drawn from the hash of the next one. */
  seedBlock: bigint
}

/** Blocks whose hashes the chain keeps: the race also ends when its seed's hash is gone. */
const readableHashes = 256n

/** The seat race of a task with replicas > 1, as the market's audit record holds it before any dispute (round 0). */
export async function readSeatRace(
  client: Client<Transport, Chain, Account>,
  deployment: Deployment,
  taskId: bigint,
): Promise<SeatRace> {
  const { joinDeadline, seedBlock } = await getAudit(client, { deployment, taskId })
  return {
    end: joinDeadline === undefined ? 0 : Math.floor(joinDeadline.getTime() / 1000),
    seedBlock: seedBlock ?? 0n,
  }
}

/** Whether a claim at chain time `now`, in a block after `head`, still races for a seat (a ticket may replace the worst). */
export function isRacing(race: SeatRace, now: number, head: bigint): boolean {
  return now <= race.end && head + 1n <= race.seedBlock + readableHashes
}
