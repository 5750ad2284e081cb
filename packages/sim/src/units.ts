import { parseUnits } from 'viem'

/** `amount` GRID (18 decimals) in wei: `grid(1.5)`. Fractions below 1e-12 GRID are rounded off. */
export function grid(amount: number): bigint {
  return parseUnits(amount.toFixed(12), 18)
}
