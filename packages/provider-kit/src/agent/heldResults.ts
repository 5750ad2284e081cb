/**
 * This agent's held results whose audit draw is ready: the release each
 * waits for. The agent's next claim carries them (`claimTask`'s `release`,
 * one `multicall`), so a release costs no transaction of its own (about
 * 27,000 gas less); a result no claim carries in time is released on its own
 * (see steps/release.ts). Shared by every task of one agent.
 */
export class HeldResults {
  readonly #ready = new Set<bigint>()

  /** Offers a held result whose draw is ready to the next claim. */
  offer(taskId: bigint): void {
    this.#ready.add(taskId)
  }

  /** Takes a held result back (released, by a claim or on its own). */
  withdraw(taskId: bigint): void {
    this.#ready.delete(taskId)
  }

  /** Up to `max` results for a claim to release, oldest first; they stay offered until withdrawn. */
  take(max: number): bigint[] {
    return [...this.#ready].slice(0, max)
  }
}
