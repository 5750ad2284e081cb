/** One line of a sweep chart: a strategy's mean profit over honest at each swept value, with its 95% interval. */
export interface SweepSeries {
  name: string
  points: { x: number; mean: number; ci95: [number, number] }[]
}

export interface SweepChartParameters {
  title: string
  xLabel: string
  yLabel: string
  series: readonly SweepSeries[]
}

const width = 880
const height = 520
const plot = { left: 80, right: width - 200, top: 56, bottom: height - 64 }
const legendX = plot.right + 24

/** Twelve colours that stay apart from each other on white, in the order series are drawn. */
const palette = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#ad494a',
] as const

/**
 * About `count` round tick values (steps of 1, 2, 2.5 or 5 × 10ⁿ) that cover
 * [min, max], so axes read 0, 5000, 10000 rather than 2000, 6500, 11000. A flat
 * range is padded first (±10%, or ±1 around zero) so it still gets an axis;
 * values are rounded to the step's precision, so no 0.30000000000000004.
 *
 * @throws RangeError when min or max is NaN or infinite.
 */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) {
    throw new RangeError(`niceTicks needs finite bounds, got ${min} and ${max}`)
  }
  let low = Math.min(min, max)
  let high = Math.max(min, max)
  if (high - low <= Math.abs(high) * 1e-12) {
    const padding = low === 0 ? 1 : Math.abs(low) * 0.1
    low -= padding
    high += padding
  }
  const raw = (high - low) / Math.max(1, Math.round(count) - 1)
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const residual = raw / magnitude
  const factor = residual <= 1 ? 1 : residual <= 2 ? 2 : residual <= 2.5 ? 2.5 : residual <= 5 ? 5 : 10
  const step = factor * magnitude
  if (!Number.isFinite(step) || step <= 0) return [low, high]
  const first = Math.floor(low / step + 1e-9)
  const last = Math.ceil(high / step - 1e-9)
  const decimals = Math.min(100, Math.max(0, -Math.floor(Math.log10(step)) + (factor === 2.5 ? 1 : 0)))
  const ticks: number[] = []
  for (let index = first; index <= last && ticks.length < 50; index++) {
    const value = Number((index * step).toFixed(decimals))
    ticks.push(value === 0 ? 0 : value)
  }
  return ticks.length >= 2 ? ticks : [low, high]
}

/** Text for an SVG element or attribute: the five XML specials escaped. */
function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

/** A coordinate with two decimals; anything non-finite becomes 0, so the SVG never holds NaN. */
function coordinate(value: number): string {
  if (!Number.isFinite(value)) return '0'
  const rounded = Math.round(value * 100) / 100
  return String(rounded === 0 ? 0 : rounded)
}

/** A tick label: the value as written (ticks are already rounded), never `-0`. */
function tickLabel(value: number): string {
  return Number.isFinite(value) ? String(value === 0 ? 0 : value) : ''
}

function truncate(text: string, size: number): string {
  const chars = [...text]
  return chars.length <= size ? text : `${chars.slice(0, size - 1).join('')}…`
}

/** A linear map from [from0, from1] onto [to0, to1]; an empty domain maps to the middle. */
function scale(from0: number, from1: number, to0: number, to1: number): (value: number) => number {
  const span = from1 - from0
  if (!Number.isFinite(span) || span === 0) return () => (to0 + to1) / 2
  return (value) => to0 + ((value - from0) / span) * (to1 - to0)
}

interface Point {
  x: number
  mean: number
  low: number
  high: number
}

/** A series' points with a finite x and mean, sorted by x; a non-finite interval bound falls back to the mean. */
function cleanPoints(series: SweepSeries): Point[] {
  return series.points
    .filter((point) => Number.isFinite(point.x) && Number.isFinite(point.mean))
    .map((point) => {
      const low = Number.isFinite(point.ci95[0]) ? point.ci95[0] : point.mean
      const high = Number.isFinite(point.ci95[1]) ? point.ci95[1] : point.mean
      return { x: point.x, mean: point.mean, low: Math.min(low, high), high: Math.max(low, high) }
    })
    .sort((a, b) => a.x - b.x)
}

/** The x axis: nice ticks over the swept values; a single value gets one tick in the middle. */
function xAxis(points: readonly Point[]): { ticks: number[]; domain: [number, number] } {
  if (points.length === 0) return { ticks: niceTicks(0, 1), domain: [0, 1] }
  const xs = points.map((point) => point.x)
  const min = Math.min(...xs)
  const max = Math.max(...xs)
  if (min === max) return { ticks: [min], domain: [min - 1, max + 1] }
  const ticks = niceTicks(min, max)
  return { ticks, domain: [ticks[0] ?? min, ticks.at(-1) ?? max] }
}

/** The y axis: nice ticks over every mean and interval bound, and always 0 (the honest line). */
/**
 * The y range follows the means (and 0), not the intervals: with few seeds an interval can be a hundred
 * times wider than the differences between strategies, and would flatten every line. Bands are clipped to
 * the plot; the tooltips keep their full extent.
 */
function yAxis(points: readonly Point[]): { ticks: number[]; domain: [number, number] } {
  const means = points.map((point) => point.mean)
  const span = Math.max(...means, 0) - Math.min(...means, 0)
  const pad = span === 0 ? 1 : span * 0.15
  const ys = [Math.min(...means, 0) - pad, Math.max(...means, 0) + pad]
  const ticks = niceTicks(Math.min(...ys), Math.max(...ys))
  return { ticks, domain: [ticks[0] ?? 0, ticks.at(-1) ?? 1] }
}

/**
 * A sweep as a self-contained SVG line chart (880 × 520, no scripts, no fonts
 * to fetch): one line per strategy with its 95% interval as a translucent band,
 * and a dashed line at 0 for honest play, so "where does this strategy start
 * to pay" reads off the picture. Points that are not finite are left out; a
 * single swept value is centred; a flat range is padded.
 */
export function sweepChartSvg({ title, xLabel, yLabel, series }: SweepChartParameters): string {
  const cleaned = series.map((entry) => ({ name: entry.name, points: cleanPoints(entry) }))
  const all = cleaned.flatMap((entry) => entry.points)
  const xs = xAxis(all)
  const ys = yAxis(all)
  const sx = scale(xs.domain[0], xs.domain[1], plot.left, plot.right)
  const sy = scale(ys.domain[0], ys.domain[1], plot.bottom, plot.top)
  const c = coordinate
  const out: string[] = []

  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${c((plot.left + plot.right) / 2)}" y="30" text-anchor="middle" font-size="16" font-weight="bold" fill="#222">${escapeXml(title)}</text>`,
  )

  // Gridlines and tick labels.
  for (const tick of xs.ticks) {
    const x = c(sx(tick))
    out.push(
      `<line x1="${x}" y1="${plot.top}" x2="${x}" y2="${plot.bottom}" stroke="#e6e6e6"/>`,
      `<text x="${x}" y="${plot.bottom + 18}" text-anchor="middle" fill="#444">${escapeXml(tickLabel(tick))}</text>`,
    )
  }
  for (const tick of ys.ticks) {
    const y = c(sy(tick))
    out.push(
      `<line x1="${plot.left}" y1="${y}" x2="${plot.right}" y2="${y}" stroke="#e6e6e6"/>`,
      `<text x="${plot.left - 8}" y="${y}" text-anchor="end" dominant-baseline="middle" fill="#444">${escapeXml(tickLabel(tick))}</text>`,
    )
  }

  // Axes and their labels.
  out.push(
    `<line x1="${plot.left}" y1="${plot.bottom}" x2="${plot.right}" y2="${plot.bottom}" stroke="#333"/>`,
    `<line x1="${plot.left}" y1="${plot.top}" x2="${plot.left}" y2="${plot.bottom}" stroke="#333"/>`,
    `<text x="${c((plot.left + plot.right) / 2)}" y="${plot.bottom + 44}" text-anchor="middle" fill="#222">${escapeXml(xLabel)}</text>`,
    `<text x="20" y="${c((plot.top + plot.bottom) / 2)}" text-anchor="middle" transform="rotate(-90 20 ${c((plot.top + plot.bottom) / 2)})" fill="#222">${escapeXml(yLabel)}</text>`,
  )

  // Honest play: profit over honest is 0 by definition.
  const zero = c(sy(0))
  out.push(
    `<line x1="${plot.left}" y1="${zero}" x2="${plot.right}" y2="${zero}" stroke="#555" stroke-width="1.5" stroke-dasharray="6 4"/>`,
    `<text x="${plot.right - 4}" y="${c(sy(0) - 6)}" text-anchor="end" fill="#555">honest</text>`,
  )

  if (all.length === 0) {
    out.push(
      `<text x="${c((plot.left + plot.right) / 2)}" y="${c((plot.top + plot.bottom) / 2 - 24)}" text-anchor="middle" fill="#888">no data</text>`,
    )
  }

  // One band, line and set of markers per series, clipped to the plot.
  out.push(
    `<clipPath id="plot"><rect x="${plot.left}" y="${plot.top}" width="${plot.right - plot.left}" height="${plot.bottom - plot.top}"/></clipPath>`,
  )
  for (const [index, entry] of cleaned.entries()) {
    const colour = palette[index % palette.length] ?? '#000000'
    const dash = index >= palette.length ? ' stroke-dasharray="4 3"' : ''
    const points = entry.points
    out.push(`<g clip-path="url(#plot)">`)
    if (points.length >= 2) {
      const upper = points.map((point) => `${c(sx(point.x))},${c(sy(point.high))}`)
      const lower = points.map((point) => `${c(sx(point.x))},${c(sy(point.low))}`).reverse()
      out.push(
        `<polygon points="${[...upper, ...lower].join(' ')}" fill="${colour}" fill-opacity="0.15" stroke="none"/>`,
      )
    } else if (points.length === 1 && points[0] !== undefined) {
      // A band needs two points; one gets an error bar.
      const x = c(sx(points[0].x))
      out.push(
        `<line x1="${x}" y1="${c(sy(points[0].low))}" x2="${x}" y2="${c(sy(points[0].high))}" stroke="${colour}" stroke-opacity="0.4" stroke-width="6"/>`,
      )
    }
    const line = points.map((point) => `${c(sx(point.x))},${c(sy(point.mean))}`).join(' ')
    out.push(`<polyline points="${line}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`)
    for (const point of points) {
      const tip = `${entry.name}: x = ${point.x}, mean = ${point.mean}, 95% [${point.low}, ${point.high}]`
      out.push(
        `<circle cx="${c(sx(point.x))}" cy="${c(sy(point.mean))}" r="3.5" fill="${colour}"><title>${escapeXml(tip)}</title></circle>`,
      )
    }
    out.push(`</g>`)
  }

  // Legend on the right.
  const spacing = Math.min(20, (plot.bottom - plot.top) / Math.max(1, cleaned.length))
  for (const [index, entry] of cleaned.entries()) {
    const colour = palette[index % palette.length] ?? '#000000'
    const dash = index >= palette.length ? ' stroke-dasharray="4 3"' : ''
    const y = plot.top + 8 + index * spacing
    out.push(
      `<line x1="${legendX}" y1="${c(y)}" x2="${legendX + 22}" y2="${c(y)}" stroke="${colour}" stroke-width="2"${dash}/>`,
      `<circle cx="${legendX + 11}" cy="${c(y)}" r="3.5" fill="${colour}"/>`,
      `<text x="${legendX + 30}" y="${c(y)}" dominant-baseline="middle" fill="#222">${escapeXml(truncate(entry.name, 22))}</text>`,
    )
  }

  out.push('</svg>')
  return `${out.join('\n')}\n`
}
