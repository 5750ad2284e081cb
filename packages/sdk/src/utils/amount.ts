/**
 * An amount of the deployment's token: a bigint in base units (wei-like), or a
 * decimal string in token units (`'1.5'` = 1.5 GRID). Numbers are refused:
 * they lose precision beyond 2^53.
 */
export type Amount = bigint | `${number}`

/** The token of a deployment, for parsing and formatting amounts. */
export interface TokenInfo {
  symbol: string
  decimals: number
}

/** GridToken, the token of local and test deployments. */
export const gridToken: TokenInfo = { symbol: 'GRID', decimals: 18 }

const decimalPattern = /^(\d+)(?:\.(\d+))?$/

/**
 * Converts an {@link Amount} to base units, or returns an explanation of why
 * it is not one.
 *
 * @example
 * parseAmount('1.5', 18) // { value: 1500000000000000000n }
 */
export function parseAmount(value: unknown, decimals: number): { value: bigint } | { error: string } {
  if (typeof value === 'bigint') return value >= 0n ? { value } : { error: 'must not be negative' }
  if (typeof value === 'number') {
    return {
      error: `numbers lose precision: pass the string '${value}' (token units) or a bigint (base units)`,
    }
  }
  if (typeof value !== 'string') return { error: "pass a decimal string like '1.5' or a bigint" }
  const match = decimalPattern.exec(value.trim())
  if (match === null) return { error: `'${value}' is not a decimal amount like '1.5'` }
  const [, whole = '0', fraction = ''] = match
  if (fraction.length > decimals) {
    return { error: `'${value}' has more than ${decimals} decimals` }
  }
  return { value: BigInt(whole + fraction.padEnd(decimals, '0')) }
}

/**
 * Formats base units as a decimal string with the token symbol.
 *
 * @example
 * formatAmount(1500000000000000000n) // '1.5 GRID'
 */
export function formatAmount(value: bigint, token: TokenInfo = gridToken): string {
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(token.decimals + 1, '0')
  const whole = digits.slice(0, digits.length - token.decimals)
  const fraction = digits.slice(digits.length - token.decimals).replace(/0+$/, '')
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`} ${token.symbol}`
}
