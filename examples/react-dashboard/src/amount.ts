import type { Amount } from '@gridforge/sdk'
import { formatUnits } from 'viem'

/** GRID has 18 decimals, like ether. */
const decimals = 18

/** Base units of GRID as a decimal string, e.g. `1500000000000000000n` → `1.5 GRID`. */
export function formatGrid(value: bigint): string {
  return `${formatUnits(value, decimals)} GRID`
}

/**
 * A rate in GRID per GPU-second, to four significant digits (`0.003333 GRID/GPU-s`): prices per
 * second divide down to 18 decimals that say nothing to a reader. Exact amounts use `formatGrid`.
 */
export function formatGridPerGpuSecond(value: bigint): string {
  const rounded = Number(formatUnits(value, decimals)).toLocaleString('en-US', {
    maximumSignificantDigits: 4,
    useGrouping: false,
  })
  return `${rounded} GRID/GPU-s`
}

/**
 * What the user typed in an amount field, passed as-is to the hooks: the SDK parses it
 * (`'1.5'` = 1.5 GRID) and throws a typed error that names the problem when it is not an amount.
 */
export function tokenAmount(text: string): Amount {
  return text.trim() as Amount
}
