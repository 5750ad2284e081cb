/**
 * The stake-weighted tickets of TaskAudits, ported (as the contracts' tests port them): a k > 1 task's seat race
 * and audit rounds draw them alike. A claim's ticket is −log2(u) / stake with u uniform from the race's seed and
 * the claimer's address; the k lowest hold the seats. Anybody can compute every ticket once the seed block's
 * successor is mined: the simulator's tests check the chain's seats against them.
 */
import { type Address, concat, encodeAbiParameters, type Hex, keccak256, pad } from 'viem'

/** TaskAudits._ticket: (−log2(u) with 32 fractional bits << 96) / stake; a stake of 0 never wins. */
export function ticket(seed: Hex, account: Address, stake: bigint): bigint {
  if (stake === 0n) return (1n << 256n) - 1n
  return (negLog2(seed, account) << 96n) / stake
}

/** −log2(u) with 32 fractional bits, u = (top 64 bits of keccak256(abi.encode(seed, account))) + 1. */
export function negLog2(seed: Hex, account: Address): bigint {
  const word = BigInt(keccak256(concat([seed, pad(account)])))
  return (64n << 32n) - log2((word >> 192n) + 1n)
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
