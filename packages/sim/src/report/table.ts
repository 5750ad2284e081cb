/** One strategy's line in the report: what it earns over honest work, and whether that is a win. */
export interface StrategyRow {
  name: string
  role: string
  /** Mean extra profit per task over honest play, as a fraction of the mean task price. */
  profitVsHonest: number
  ci95: [number, number]
  beatsHonest: boolean
  seeds: number
  doc: string
}

const legend =
  'profit vs honest: extra profit per task of the deviating participant over the same participant playing honest, as a fraction of the mean task price'

const columns = ['strategy', 'role', 'profit vs honest', '95% interval', 'verdict'] as const
/** Numbers read best right-aligned, so their signs and decimal points line up. */
const rightAligned: readonly boolean[] = [false, false, true, true, false]

/**
 * A number with its sign always written and three decimals (`+0.412`, `-0.030`),
 * so gains and losses read apart at a glance; -0 prints as `+0.000` and a
 * non-finite value as `n/a` rather than `NaN`.
 */
export function formatSigned(value: number): string {
  if (!Number.isFinite(value)) return 'n/a'
  const fixed = value.toFixed(3)
  if (fixed.startsWith('-')) return /[1-9]/.test(fixed) ? fixed : `+${fixed.slice(1)}`
  return `+${fixed}`
}

/** Width in terminal columns, counting code points (`─` and `…` are one column each). */
function width(text: string): number {
  return [...text].length
}

function pad(text: string, size: number, right: boolean): string {
  const fill = ' '.repeat(Math.max(0, size - width(text)))
  return right ? fill + text : text + fill
}

/**
 * The strategies as a plain-text table for the terminal and for pasting into
 * issues: one line each with the profit over honest, its 95% interval and the
 * verdict, under a title and over a one-line legend saying what the number means
 * (a bare "+0.412" invites the wrong reading).
 */
export function formatTable(
  rows: readonly StrategyRow[],
  title: string,
  legendLine: string = legend,
): string {
  const cells = rows.map((row) => [
    row.name,
    row.role,
    formatSigned(row.profitVsHonest),
    `[${formatSigned(row.ci95[0])}, ${formatSigned(row.ci95[1])}]`,
    row.beatsHonest ? 'BEATS HONEST' : 'does not',
  ])
  const widths = columns.map((header, index) =>
    Math.max(width(header), ...cells.map((line) => width(line[index] ?? ''))),
  )
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => pad(value, widths[index] ?? 0, rightAligned[index] ?? false))
      .join('  ')
      .trimEnd()
  const rule = '─'.repeat(widths.reduce((total, size) => total + size, 0) + 2 * (widths.length - 1))
  const body = cells.length === 0 ? ['(no strategies)'] : cells.map(line)
  return [title, rule, line(columns), rule, ...body, rule, legendLine].join('\n')
}
