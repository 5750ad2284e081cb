import { describe, expect, it } from 'vitest'
import { niceTicks, type SweepSeries, sweepChartSvg } from './chart.js'

/**
 * A small well-formedness check: every tag closes in order, every attribute is
 * quoted, and text holds no raw `<` or bare `&`. Enough to catch a broken SVG
 * without an XML parser.
 */
function expectWellFormed(svg: string): void {
  const stack: string[] = []
  const tag = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/y
  let index = 0
  while (index < svg.length) {
    const next = svg.indexOf('<', index)
    const text = svg.slice(index, next === -1 ? svg.length : next)
    expect(text).not.toMatch(/&(?!#\d+;|[a-z]+;)/)
    if (next === -1) break
    tag.lastIndex = next
    const match = tag.exec(svg)
    expect(match, `malformed tag at ${svg.slice(next, next + 60)}`).not.toBeNull()
    const [whole, closing, name, , selfClosing] = match!
    if (closing) expect(stack.pop()).toBe(name)
    else if (!selfClosing) stack.push(name!)
    index = next + whole.length
  }
  expect(stack).toEqual([])
}

function count(text: string, needle: string): number {
  return text.split(needle).length - 1
}

const series: SweepSeries[] = [
  {
    name: 'lazy-provider',
    points: [
      { x: 2000, mean: 0.4, ci95: [0.35, 0.45] },
      { x: 6500, mean: 0.2, ci95: [0.12, 0.28] },
      { x: 11000, mean: -0.05, ci95: [-0.1, 0] },
    ],
  },
  {
    name: 'colluding <pair> & "friends"',
    points: [
      { x: 11000, mean: -0.2, ci95: [-0.25, -0.15] },
      { x: 2000, mean: 0.1, ci95: [0.05, 0.15] },
    ],
  },
]

describe('niceTicks', () => {
  it('gives round steps covering the range', () => {
    expect(niceTicks(0, 1, 5)).toEqual([0, 0.25, 0.5, 0.75, 1])
    expect(niceTicks(2000, 20000, 5)).toEqual([0, 5000, 10000, 15000, 20000])
    expect(niceTicks(-0.3, 0.45, 5)).toEqual([-0.4, -0.2, 0, 0.2, 0.4, 0.6])
  })

  it('rounds away floating-point noise', () => {
    for (const tick of niceTicks(0.1, 0.7, 5)) expect(String(tick)).toMatch(/^-?\d+(\.\d{1,2})?$/)
  })

  it('pads a flat range', () => {
    const ticks = niceTicks(3, 3, 5)
    expect(ticks[0]).toBeLessThan(3)
    expect(ticks.at(-1)).toBeGreaterThan(3)
    expect(niceTicks(0, 0, 5)).toEqual([-1, -0.5, 0, 0.5, 1])
  })

  it('accepts the bounds in either order', () => {
    expect(niceTicks(1, 0, 5)).toEqual(niceTicks(0, 1, 5))
  })

  it('never writes -0', () => {
    expect(niceTicks(-1, 1, 5).some((tick) => Object.is(tick, -0))).toBe(false)
  })

  it('rejects non-finite bounds', () => {
    expect(() => niceTicks(Number.NaN, 1)).toThrow(RangeError)
    expect(() => niceTicks(0, Number.POSITIVE_INFINITY)).toThrow(RangeError)
  })
})

describe('sweepChartSvg', () => {
  const svg = sweepChartSvg({
    title: 'Collateral sweep',
    xLabel: 'collateralBps',
    yLabel: 'profit vs honest',
    series,
  })

  it('is a well-formed 880 × 520 SVG', () => {
    expect(svg.startsWith('<svg')).toBe(true)
    expect(svg).toContain('width="880"')
    expect(svg).toContain('height="520"')
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
    expectWellFormed(svg)
  })

  it('draws one polyline, one band and one marker per point for each series', () => {
    expect(count(svg, '<polyline')).toBe(2)
    expect(count(svg, '<polygon')).toBe(2)
    // 5 data markers + 2 legend markers.
    expect(count(svg, '<circle')).toBe(7)
    expect(svg).toContain('fill-opacity="0.15"')
  })

  it('draws a dashed honest line at 0', () => {
    expect(svg).toMatch(/stroke-dasharray="6 4"/)
    expect(svg).toContain('>honest</text>')
  })

  it('gives the series distinct colours', () => {
    const colours = [...svg.matchAll(/<polyline[^>]*stroke="(#[0-9a-f]{6})"/g)].map((match) => match[1])
    expect(new Set(colours).size).toBe(2)
  })

  it('escapes text', () => {
    expect(svg).not.toContain('<pair>')
    expect(svg).toContain('colluding &#60;pair&#62; &#38; &#34;friends&#34;')
  })

  it('labels the axes and the title', () => {
    expect(svg).toContain('>Collateral sweep</text>')
    expect(svg).toContain('>collateralBps</text>')
    expect(svg).toContain('>profit vs honest</text>')
    expect(svg).toContain('>10000</text>')
  })

  it('draws points in x order', () => {
    const second = svg.match(/<polyline points="([^"]*)"/g)![1]!
    const xs = [...second.matchAll(/([\d.]+),[\d.]+/g)].map((match) => Number(match[1]))
    expect(xs).toEqual([...xs].sort((a, b) => a - b))
  })

  it('centres a single x value', () => {
    const one = sweepChartSvg({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [{ name: 'a', points: [{ x: 7, mean: 0.2, ci95: [0.1, 0.3] }] }],
    })
    expectWellFormed(one)
    expect(one).not.toContain('NaN')
    const cx = Number(/<circle cx="([\d.]+)"/.exec(one)![1])
    expect(cx).toBe((80 + 680) / 2)
  })

  it('pads a flat y range and never writes NaN', () => {
    const flat = sweepChartSvg({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [
        {
          name: 'flat',
          points: [
            { x: 1, mean: 0, ci95: [0, 0] },
            { x: 2, mean: 0, ci95: [0, 0] },
          ],
        },
      ],
    })
    expectWellFormed(flat)
    expect(flat).not.toContain('NaN')
    expect(flat).not.toContain('Infinity')
  })

  it('leaves out non-finite points and copes with no data', () => {
    const bad = sweepChartSvg({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: [
        {
          name: 'bad',
          points: [
            { x: Number.NaN, mean: 1, ci95: [0, 2] },
            { x: 1, mean: Number.POSITIVE_INFINITY, ci95: [0, 2] },
            { x: 2, mean: 0.5, ci95: [Number.NaN, 0.6] },
          ],
        },
        { name: 'empty', points: [] },
      ],
    })
    expectWellFormed(bad)
    expect(bad).not.toContain('NaN')
    expect(bad).not.toContain('Infinity')
    expect(count(bad, '<polyline')).toBe(2)
    const none = sweepChartSvg({ title: 't', xLabel: 'x', yLabel: 'y', series: [] })
    expectWellFormed(none)
    expect(none).not.toContain('NaN')
    expect(none).toContain('no data')
  })

  it('cycles the palette past twelve series, dashing the second round', () => {
    const many = sweepChartSvg({
      title: 't',
      xLabel: 'x',
      yLabel: 'y',
      series: Array.from({ length: 13 }, (_, index) => ({
        name: `s${index}`,
        points: [
          { x: 0, mean: index / 10, ci95: [index / 10 - 0.01, index / 10 + 0.01] as [number, number] },
          { x: 1, mean: index / 10, ci95: [index / 10 - 0.01, index / 10 + 0.01] as [number, number] },
        ],
      })),
    })
    expectWellFormed(many)
    expect(count(many, '<polyline')).toBe(13)
    const colours = [...many.matchAll(/<polyline[^>]*stroke="(#[0-9a-f]{6})"/g)].map((match) => match[1])
    expect(new Set(colours.slice(0, 12)).size).toBe(12)
    expect(many).toMatch(/<polyline[^>]*stroke-dasharray="4 3"/)
  })
})
