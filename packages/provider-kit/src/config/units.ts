/**
 * The human units of the config file: sizes (`"2GiB"`), intervals (`"1s"`,
 * `"1h30m"`) and token amounts (`"0.5"`). Parsers return `undefined` for what
 * is not one, so the schema can say which field is wrong and what it expects.
 */

const sizeUnits: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1000,
  mb: 1000 ** 2,
  gb: 1000 ** 3,
  tb: 1000 ** 4,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
}

const sizePattern = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i

/**
 * Bytes of a size: a whole number of bytes, or a number and a unit — `B`,
 * `kB`/`MB`/`GB`/`TB` (powers of 1000) or `KiB`/`MiB`/`GiB`/`TiB` (powers of
 * 1024), case-insensitive. `undefined` when it is not a size or not a whole
 * number of bytes below 2^53.
 *
 * @example
 * parseSize('2GiB') // 2147483648
 * parseSize('1.5 MB') // 1500000
 * parseSize(4096) // 4096
 */
export function parseSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined
  if (typeof value !== 'string') return undefined
  const match = sizePattern.exec(value.trim())
  if (match === null) return undefined
  const unit = sizeUnits[(match[2] ?? '').toLowerCase() || 'b']
  if (unit === undefined) return undefined
  const bytes = Number(match[1]) * unit
  return Number.isSafeInteger(bytes) ? bytes : undefined
}

/**
 * A size as the largest binary unit that divides it: `2GiB`, `512MiB`, `1000B`.
 *
 * @example
 * formatSize(1024 ** 3) // '1GiB'
 */
export function formatSize(bytes: number): string {
  for (const [unit, size] of [
    ['TiB', 1024 ** 4],
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size && bytes % size === 0) return `${bytes / size}${unit}`
  }
  return `${bytes}B`
}

const intervalUnits: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
}

const intervalPattern = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)/

/**
 * Milliseconds of an interval: one or more number-and-unit parts — `ms`, `s`,
 * `m`, `h`, `d` — like `"500ms"`, `"30s"`, `"1h30m"`. `undefined` when it is
 * not one or not a whole number of milliseconds.
 *
 * @example
 * parseInterval('1h30m') // 5400000
 * parseInterval('250ms') // 250
 */
export function parseInterval(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined
  let rest = value.trim()
  if (rest === '') return undefined
  let milliseconds = 0
  while (rest !== '') {
    const match = intervalPattern.exec(rest)
    if (match === null) return undefined
    milliseconds += Number(match[1]) * (intervalUnits[match[2] ?? ''] ?? Number.NaN)
    rest = rest.slice(match[0].length)
  }
  return Number.isSafeInteger(milliseconds) ? milliseconds : undefined
}

/**
 * An amount of the deployment's token in token units, as a decimal string
 * (`"100"`, `"0.000001"`): converted to base units once the deployment's
 * token (and its decimals) is known. Never a number, which loses precision.
 */
export type TokenAmount = `${number}`

const amountPattern = /^\d+(?:\.\d+)?$/

/** Whether `value` is a {@link TokenAmount}: digits, optionally a point and more digits. */
export function isTokenAmount(value: unknown): value is TokenAmount {
  return typeof value === 'string' && amountPattern.test(value)
}
