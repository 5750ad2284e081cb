/**
 * Gas limits for the agent's transactions whose cost depends on what lands
 * before them. A node estimates a transaction against the state it sees: a
 * reveal estimated while other replicas have yet to reveal is priced as a
 * plain reveal (73,069 gas in `pnpm bench:gas`), but if another reveal lands
 * first it becomes the settling one (135,121 gas for 2 replicas, 164,646 for
 * 3, plus about 30,000 per further replica, more when replicas are slashed)
 * and runs out of gas: a reverted transaction the provider pays for.
 * Only the gas used is paid, so a limit that covers the costliest path costs
 * nothing more when the cheap one is taken.
 */
export const gasLimits = {
  /** Claiming: the last free slot also moves the task to Claimed (82,748 measured). */
  claim: 250_000n,
  /**
   * A release a claim carries (`claimTask`'s `release`): not drawn it settles the task (about 55,000 gas);
   * drawn it opens an audit round.
   */
  release: 150_000n,
  /** Committing: the last commitment also opens the reveal window (59,176 measured). */
  commit: 200_000n,
  /** Joining an audit: a better ticket also replaces the worst seated auditor (unlocking its collateral). */
  joinAudit: 400_000n,
  /**
   * An auditor's reveal: the last one closes the round, which settles the audit (pays the provider and
   * the auditors, slashes whoever was wrong) or opens the next round.
   */
  auditReveal: 900_000n,
} as const

/**
 * A reveal's limit for a task with `replicas` replicas: the settling reveal
 * pays every agreeing replica, slashes the others and splits the fees
 * (164,646 gas measured for 3 replicas), with room for the slashing path.
 *
 * @example
 * revealGasLimit(3) // 400_000n
 */
export function revealGasLimit(replicas: number): bigint {
  return 160_000n + 80_000n * BigInt(replicas)
}
