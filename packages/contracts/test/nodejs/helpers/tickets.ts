/**
 * The stake-weighted tickets of TaskAudits, ported to TypeScript: audits' rounds and the race for the seats of a
 * k > 1 task draw them alike. The suites check the port against the contract (the scores its events and slots
 * carry) and use it off chain: to know who wins a race before it is run, and for Monte-Carlo estimates.
 */
import { concat, encodeAbiParameters, getAddress, type Hex, keccak256, pad, toHex } from 'viem'

/** TaskAudits._ticket: (−log2(u) with 32 fractional bits << 96) / stake, u = top 64 bits of keccak(seed, auditor) + 1. */
export function ticket(seed: Hex, auditor: Hex, stake: bigint): bigint {
  if (stake === 0n) return (1n << 256n) - 1n
  return (negLog2(seed, auditor) << 96n) / stake
}

/**
 * The stake-free part of a ticket: −log2(u) with 32 fractional bits, u = (top 64 bits of
 * keccak256(abi.encode(seed, account))) + 1 in 1..2^64. `ticket` is (negLog2 << 96) / stake; a Monte Carlo that
 * tries several stakes for one account computes it once.
 */
export function negLog2(seed: Hex, account: Hex): bigint {
  // abi.encode(bytes32, address): the seed, then the address left-padded to 32 bytes.
  const word = BigInt(keccak256(concat([seed, pad(account)])))
  const u = (word >> 192n) + 1n
  return (64n << 32n) - log2(u)
}

/** TaskAudits._log2: log2(x) for 1 ≤ x ≤ 2^64 with 32 fractional bits, one bit per squaring. */
export function log2(x: bigint): bigint {
  let n = 0n
  while (x >> (n + 1n) > 0n) n++
  let result = n << 32n
  let y = (x << 64n) >> n
  for (let bit = 1n << 31n; bit !== 0n; bit >>= 1n) {
    y = (y * y) >> 64n
    if (y >= 2n << 64n) {
      y >>= 1n
      result |= bit
    }
  }
  return result
}

/** The seed of the race for the seats of `taskId`: keccak256(abi.encode(blockhash(seedBlock + 1), taskId)). */
export function raceSeed(seedHash: Hex, taskId: bigint): Hex {
  return keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [seedHash, taskId]))
}

/** The seed of audit round `round` of `taskId`: keccak256(abi.encode(blockhash(seedBlock + 1), taskId, round)). */
export function auditSeed(seedHash: Hex, taskId: bigint, round: number): Hex {
  return keccak256(
    encodeAbiParameters(
      [{ type: 'bytes32' }, { type: 'uint256' }, { type: 'uint8' }],
      [seedHash, taskId, round],
    ),
  )
}

/** A deterministic address from a label. */
export function labelAccount(label: string): Hex {
  return getAddress(keccak256(toHex(label)).slice(0, 42))
}
