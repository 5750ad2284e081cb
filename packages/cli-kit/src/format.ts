/** Human output: aligned fields, tables, dates, transactions. */

/** A date as `2025-01-31 12:00:00Z`. */
export function formatDate(date: Date | string | undefined): string {
  if (date === undefined) return '-'
  return new Date(date)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, 'Z')
}

/** `tx 0x… (block 12)` for a write's result. */
export function formatTransaction({ hash, blockNumber }: { hash: string; blockNumber: bigint }): string {
  return `tx ${hash} (block ${blockNumber})`
}

/** `label: value` lines with the values aligned. */
export function fields(entries: readonly (readonly [string, unknown])[]): string[] {
  const width = Math.max(0, ...entries.map(([label]) => label.length)) + 1
  return entries.map(([label, value]) => `${`${label}:`.padEnd(width + 1)}${show(value)}`)
}

/** Rows as columns separated by two spaces, with a header. */
export function table(header: readonly string[], rows: readonly (readonly unknown[])[]): string[] {
  const cells = [header.map(String), ...rows.map((row) => row.map(show))]
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)))
  return cells.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd(),
  )
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '-'
  if (value instanceof Date) return formatDate(value)
  if (typeof value === 'bigint' || typeof value === 'number' || typeof value === 'boolean')
    return String(value)
  if (typeof value === 'string') return value
  return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))
}
