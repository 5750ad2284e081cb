import { describe, expect, it } from 'vitest'
import { parseSimArgs, SimArgsError, simUsage } from './args.js'

function errorOf(argv: string[]): SimArgsError {
  try {
    parseSimArgs(argv)
  } catch (error) {
    expect(error).toBeInstanceOf(SimArgsError)
    return error as SimArgsError
  }
  throw new Error(`expected ${JSON.stringify(argv)} to be refused`)
}

describe('parseSimArgs', () => {
  it('gives the defaults for no flags', () => {
    expect(parseSimArgs([])).toEqual({
      check: false,
      full: false,
      capture: false,
      leases: false,
      seeds: undefined,
      strategies: undefined,
      sweeps: [],
      set: {},
      out: undefined,
      quiet: false,
      help: false,
    })
  })

  it('reads every flag', () => {
    const args = parseSimArgs([
      '--check',
      '--full',
      '--capture',
      '--leases',
      '--seeds',
      '12',
      '--strategy',
      'a,b',
      '--strategy=c',
      '--sweep',
      'collateralBps=2000..20000',
      '--set',
      'replicas=3',
      '--out',
      'results/sim.json',
      '--quiet',
      '-h',
    ])
    expect(args).toEqual({
      check: true,
      full: true,
      capture: true,
      leases: true,
      seeds: 12,
      strategies: ['a', 'b', 'c'],
      sweeps: [{ parameter: 'collateralBps', values: [2000, 6500, 11000, 15500, 20000] }],
      set: { replicas: 3 },
      out: 'results/sim.json',
      quiet: true,
      help: true,
    })
    expect(parseSimArgs(['--help']).help).toBe(true)
  })

  it('skips a leading -- passed on by pnpm', () => {
    expect(parseSimArgs(['--', '--check']).check).toBe(true)
  })

  it('trims and deduplicates strategy names, keeping their order', () => {
    expect(parseSimArgs(['--strategy', 'b, a', '--strategy', 'b']).strategies).toEqual(['b', 'a'])
  })

  describe('--sweep', () => {
    const sweep = (text: string) => parseSimArgs(['--sweep', text]).sweeps[0]

    it('defaults to 5 values including both ends', () => {
      expect(sweep('x=0..1')).toEqual({ parameter: 'x', values: [0, 0.25, 0.5, 0.75, 1] })
    })

    it('takes a number of steps', () => {
      expect(sweep('x=0..10:3')?.values).toEqual([0, 5, 10])
      expect(sweep('x=1..2:2')?.values).toEqual([1, 2])
    })

    it('keeps integers when the steps divide the range evenly', () => {
      const values = sweep('collateralBps=2000..20000:10')!.values
      expect(values).toEqual([2000, 4000, 6000, 8000, 10000, 12000, 14000, 16000, 18000, 20000])
      for (const value of values) expect(Number.isInteger(value)).toBe(true)
    })

    it('rounds to 6 significant digits otherwise, keeping the ends as given', () => {
      expect(sweep('x=0..1:4')?.values).toEqual([0, 0.333333, 0.666667, 1])
      expect(sweep('x=0.1..0.7:4')?.values).toEqual([0.1, 0.3, 0.5, 0.7])
      expect(sweep('x=1..2:4')?.values).toEqual([1, 1.33333, 1.66667, 2])
    })

    it('accepts negative and exponent bounds', () => {
      expect(sweep('x=-1..1:3')?.values).toEqual([-1, 0, 1])
      expect(sweep('x=1e3..3e3:3')?.values).toEqual([1000, 2000, 3000])
    })

    it('takes an explicit list, in the order given', () => {
      expect(sweep('replicas=3,1,2')).toEqual({ parameter: 'replicas', values: [3, 1, 2] })
      expect(sweep('x=0.5')).toEqual({ parameter: 'x', values: [0.5] })
    })

    it('is repeatable', () => {
      const args = parseSimArgs(['--sweep', 'a=1,2', '--sweep', 'b=0..4:3'])
      expect(args.sweeps).toEqual([
        { parameter: 'a', values: [1, 2] },
        { parameter: 'b', values: [0, 2, 4] },
      ])
    })
  })

  it('collects --set overrides', () => {
    expect(parseSimArgs(['--set', 'a=1', '--set', 'b=-0.5', '--set', 'c=2e3']).set).toEqual({
      a: 1,
      b: -0.5,
      c: 2000,
    })
  })

  it('keeps a parameter named __proto__ as data', () => {
    const { set } = parseSimArgs(['--set', '__proto__=1'])
    expect(Object.keys(set)).toEqual(['__proto__'])
    expect(Object.getPrototypeOf(set)).toBe(Object.prototype)
  })
})

describe('parseSimArgs errors', () => {
  it.each([
    [
      ['--sweep', 'collateralBps=abc'],
      '--sweep expects name=lo..hi[:steps] or name=v1,v2,…, got "collateralBps=abc"',
    ],
    [['--sweep', '=1..2'], '--sweep expects name=lo..hi[:steps]'],
    [['--sweep', 'x=1..'], '--sweep expects name=lo..hi[:steps]'],
    [['--sweep', 'x=1,,2'], '--sweep expects name=lo..hi[:steps]'],
    [['--sweep', 'x=1..5:x'], '--sweep expects name=lo..hi[:steps]'],
    [['--sweep', 'x=5..1'], '--sweep range must go up (lo < hi), got "x=5..1"; write x=1..5'],
    [['--sweep', 'x=5..5'], 'for one value write --set x=5'],
    [['--sweep', 'x=1..5:1'], '--sweep steps (the number of values) must be a whole number from 2 to 1000'],
    [['--sweep', 'x=1..5:5000'], 'from 2 to 1000, got "x=1..5:5000"'],
    [['--sweep', 'x=1..1.000001:100'], 'more steps than the range holds'],
    [['--sweep', 'x=1e999..2e999'], '--sweep bounds must be finite numbers'],
    [['--sweep', 'x=1,2,1'], 'lists 1 twice'],
    [['--sweep', 'x=1,2', '--sweep', 'x=3..4'], '--sweep x is given twice'],
    [
      ['--set', 'x=abc'],
      '--set expects name=value with a number, got "x=abc" (e.g. --set collateralBps=5000)',
    ],
    [['--set', 'x'], '--set expects name=value with a number, got "x"'],
    [['--set', 'x=1', '--set', 'x=2'], '--set x is given twice ("x=1" and "x=2"); keep one'],
    [['--set', 'x=1', '--sweep', 'x=1..2'], 'x is both swept (--sweep) and set (--set)'],
    [['--seeds', '0'], '--seeds expects a positive whole number, got "0" (e.g. --seeds 20)'],
    [['--seeds', '2.5'], '--seeds expects a positive whole number, got "2.5"'],
    [['--seeds', 'ten'], '--seeds expects a positive whole number, got "ten"'],
    [['--seeds=-3'], '--seeds expects a positive whole number, got "-3"'],
    [['--seeds', '-3'], '--seeds needs a value, but the next argument starts with "-"'],
    [['--seeds'], '--seeds needs a value (e.g. --seeds 20)'],
    [
      ['--strategy', 'a,,b'],
      '--strategy expects names separated by commas, got "a,,b" (e.g. --strategy a,b)',
    ],
    [['--strategy='], '--strategy expects names separated by commas, got ""'],
    [['--out='], '--out expects a file path, got ""'],
    [['--out'], '--out needs a value (e.g. --out results/sim.json)'],
    [['--check=yes'], '--check takes no value, got "--check=yes"; write --check alone'],
    [['--bogus'], 'unknown flag --bogus; run pnpm sim --help to list the flags'],
    [['--seed', '3'], 'unknown flag --seed (did you mean --seeds?)'],
    [['-x'], 'unknown flag -x'],
    [
      ['collateralBps=5'],
      'unexpected argument "collateralBps=5": pnpm sim takes only flags; to override a parameter write --set collateralBps=5',
    ],
    [['fast'], 'unexpected argument "fast": pnpm sim takes only flags (run pnpm sim --help'],
  ])('refuses %j', (argv, message) => {
    expect(errorOf(argv).message).toContain(message)
  })

  it('keeps parseArgs’ error as the cause of a rewrapped one', () => {
    expect(errorOf(['--bogus']).cause).toBeInstanceOf(TypeError)
  })
})

describe('simUsage', () => {
  it('lists every flag with the examples', () => {
    for (const flag of [
      '--check',
      '--full',
      '--capture',
      '--leases',
      '--seeds',
      '--strategy',
      '--sweep',
      '--set',
      '--out',
      '--quiet',
      '--help',
      '-h',
    ]) {
      expect(simUsage).toContain(flag)
    }
    expect(simUsage).toContain('pnpm sim --sweep collateralBps=2000..20000')
    expect(simUsage).toContain('pnpm sim --check')
    expect(simUsage).toContain('pnpm sim --full')
    expect(simUsage).toContain('pnpm sim --capture')
    expect(simUsage).toContain('pnpm sim --leases')
  })
})
