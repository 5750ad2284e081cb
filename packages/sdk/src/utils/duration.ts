/** A duration: seconds as a number or bigint, or a string like `'90s'`, `'30m'`, `'2h'`, `'7d'`, `'1h30m'`. */
export type Duration = number | bigint | `${number}${'s' | 'm' | 'h' | 'd' | 'w'}${string}`

const unitSeconds = { s: 1, m: 60, h: 3_600, d: 86_400, w: 604_800 } as const
const durationPattern = /^(\d+(?:\.\d+)?)(s|m|h|d|w)/

/**
 * Converts a {@link Duration} to whole seconds, or returns `undefined` when it
 * is not one (negative, fractional seconds, unknown unit, empty).
 *
 * @example
 * parseDuration('1h30m') // 5400
 * parseDuration(90) // 90
 */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'bigint') value = value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : -1
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string') return undefined
  let rest = value.trim()
  if (rest === '') return undefined
  let seconds = 0
  while (rest !== '') {
    const match = durationPattern.exec(rest)
    if (match === null) return undefined
    seconds += Number(match[1]) * unitSeconds[match[2] as keyof typeof unitSeconds]
    rest = rest.slice(match[0].length)
  }
  return Number.isSafeInteger(seconds) ? seconds : undefined
}

/**
 * Formats seconds as the shortest {@link Duration} string.
 *
 * @example
 * formatDuration(5400) // '1h30m'
 */
export function formatDuration(seconds: number): string {
  if (seconds === 0) return '0s'
  let rest = Math.round(seconds)
  let out = ''
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      out += `${Math.floor(rest / size)}${unit}`
      rest %= size
    }
  }
  return out
}
