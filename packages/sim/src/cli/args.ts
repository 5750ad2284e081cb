import { parseArgs } from 'node:util'

/** One swept parameter and the values it takes, in the order given. */
export interface SweepSpec {
  parameter: string
  values: number[]
}

/** What `pnpm sim` was asked to do. */
export interface SimArgs {
  check: boolean
  full: boolean
  /** Only the capture table (`pnpm sim` without --strategy or --sweep runs it after the strategies). */
  capture: boolean
  /** Only the lease table (`pnpm sim` without --strategy or --sweep runs it after the task table). */
  leases: boolean
  seeds: number | undefined
  strategies: string[] | undefined
  sweeps: SweepSpec[]
  set: Record<string, number>
  out: string | undefined
  quiet: boolean
  help: boolean
}

/** A bad command line: the message says what is wrong and what to write instead. */
export class SimArgsError extends Error {
  override name = 'SimArgsError'
}

export const simUsage = `Usage: pnpm sim [flags]

Runs the market simulator: each strategy against honest play on the real contracts,
and prints what each earns over honest work with a 95% interval.

Flags:
  --check                    exit with code 1 when any strategy beats honest at the defaults
                             (or the capture table strays from the exact values); no sweeps.
                             A strategy above honest on the first seeds is played again on
                             10 fresh seeds and fails the check only if it beats honest there too.
                             Writes no results file unless --out says where
                               pnpm sim --check
  --full                     the full run: 10 seeds, collateralBps and sybilFraction swept
                               pnpm sim --full
  --capture                  only the capture table: how often a sybil with a fraction f of the
                             stake holds a majority of a k = 2 or 3 task's seats, on the chain
                             against the exact value (a run without --strategy or --sweep
                             includes it)
                               pnpm sim --capture
  --leases                   only the lease table: lease strategies (offline provider, renters that
                             skip the last acknowledgements, under-report or report falsely)
                             against honest play on LeaseMarket (a run without --strategy or
                             --sweep includes it after the task table)
                               pnpm sim --leases
  --seeds N                  seeds per strategy (a positive whole number)
                               pnpm sim --seeds 20
  --strategy a,b             only these strategies (repeatable, or a comma list)
                               pnpm sim --strategy lazy-provider,vetoing-client
  --sweep name=lo..hi[:steps]
                             sweep a parameter over steps evenly spaced values, both ends
                             included (5 unless :steps says); repeatable
                               pnpm sim --sweep collateralBps=2000..20000
                               pnpm sim --sweep collateralBps=2000..20000:10
  --sweep name=v1,v2,…       sweep a parameter over these values
                               pnpm sim --sweep sybilFraction=0.1,0.3,0.5
  --set name=value           override a numeric parameter (repeatable)
                               pnpm sim --set collateralBps=5000
  --out file                 write the results as JSON there (and a sweep's chart beside it as .svg)
                               pnpm sim --out results/sim.json
  --quiet                    print only the table
  -h, --help                 print this help
`

const examples = {
  seeds: '--seeds 20',
  strategy: '--strategy a,b',
  sweep: '--sweep collateralBps=2000..20000',
  set: '--set collateralBps=5000',
  out: '--out results/sim.json',
} as const

const options = {
  check: { type: 'boolean' },
  full: { type: 'boolean' },
  capture: { type: 'boolean' },
  leases: { type: 'boolean' },
  seeds: { type: 'string' },
  strategy: { type: 'string', multiple: true },
  sweep: { type: 'string', multiple: true },
  set: { type: 'string', multiple: true },
  out: { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const

/** The most values one sweep may have: a guard against a typo like `:1000000` that would run for days. */
const maxSweepSteps = 1000
const defaultSweepSteps = 5

const numberPattern = '[+-]?(?:\\d+(?:\\.\\d+)?|\\.\\d+)(?:[eE][+-]?\\d+)?'
const namePattern = '[A-Za-z_][A-Za-z0-9_]*(?:\\.[A-Za-z_][A-Za-z0-9_]*)*'
const rangeRegExp = new RegExp(`^(${namePattern})=(${numberPattern})\\.\\.(${numberPattern})(?::(\\d+))?$`)
const listRegExp = new RegExp(`^(${namePattern})=(${numberPattern}(?:,${numberPattern})*)$`)
const setRegExp = new RegExp(`^(${namePattern})=(${numberPattern})$`)

/**
 * The flags of `pnpm sim`, checked: every bad input throws a {@link SimArgsError}
 * whose message names the flag, quotes what was given and shows what to write,
 * because a simulator run takes minutes and a silently ignored typo costs a run.
 * A leading `--` (as some pnpm versions pass on) is skipped.
 *
 * @example
 * parseSimArgs(['--sweep', 'collateralBps=2000..20000', '--seeds', '10'])
 * // { sweeps: [{ parameter: 'collateralBps', values: [2000, 6500, 11000, 15500, 20000] }], seeds: 10, … }
 */
export function parseSimArgs(argv: readonly string[]): SimArgs {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv]
  let values: ReturnType<typeof parse>
  try {
    values = parse(args)
  } catch (error) {
    throw rewrapParseError(error, args)
  }
  const sweeps = (values.sweep ?? []).map(parseSweep)
  const swept = new Set<string>()
  for (const sweep of sweeps) {
    if (swept.has(sweep.parameter)) {
      throw new SimArgsError(
        `--sweep ${sweep.parameter} is given twice; sweep each parameter once (list every value in one: --sweep ${sweep.parameter}=1,2,3)`,
      )
    }
    swept.add(sweep.parameter)
  }
  const set = parseSets(values.set ?? [])
  for (const name of Object.keys(set)) {
    if (swept.has(name)) {
      throw new SimArgsError(`${name} is both swept (--sweep) and set (--set); keep one of the two`)
    }
  }
  return {
    check: values.check ?? false,
    full: values.full ?? false,
    capture: values.capture ?? false,
    leases: values.leases ?? false,
    seeds: values.seeds === undefined ? undefined : parseSeeds(values.seeds),
    strategies: values.strategy === undefined ? undefined : parseStrategies(values.strategy),
    sweeps,
    set,
    out: values.out === undefined ? undefined : parseOut(values.out),
    quiet: values.quiet ?? false,
    help: values.help ?? false,
  }
}

function parse(args: string[]) {
  return parseArgs({ args, options, strict: true, allowPositionals: false }).values
}

/** parseArgs' own TypeErrors, reworded as a SimArgsError that says what to write. */
function rewrapParseError(error: unknown, args: readonly string[]): unknown {
  if (!(error instanceof Error)) return error
  const code = (error as { code?: unknown }).code
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? ''
  const flag = quoted.replace(/ <value>$/, '')
  const name = flag.replace(/^-+/, '')
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const suggestion = closestFlag(name)
    const hint = suggestion === undefined ? '' : ` (did you mean --${suggestion}?)`
    return new SimArgsError(`unknown flag ${flag}${hint}; run pnpm sim --help to list the flags`, {
      cause: error,
    })
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const example = examples[name as keyof typeof examples]
    if (example === undefined) {
      const given = args.find((arg) => arg.startsWith(`${flag}=`)) ?? `${flag}=…`
      return new SimArgsError(`${flag} takes no value, got "${given}"; write ${flag} alone`, { cause: error })
    }
    if (/ambiguous/.test(error.message)) {
      return new SimArgsError(
        `${flag} needs a value, but the next argument starts with "-"; write ${flag}=<value> if that is the value (e.g. ${example})`,
        { cause: error },
      )
    }
    return new SimArgsError(`${flag} needs a value (e.g. ${example})`, { cause: error })
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    const hint = quoted.includes('=') ? `; to override a parameter write --set ${quoted}` : ''
    return new SimArgsError(
      `unexpected argument "${quoted}": pnpm sim takes only flags${hint} (run pnpm sim --help to list them)`,
      { cause: error },
    )
  }
  return error
}

/** The known long flag nearest to a mistyped one (at most two edits away), to suggest it. */
function closestFlag(name: string): string | undefined {
  let best: string | undefined
  let bestDistance = 3
  for (const candidate of Object.keys(options)) {
    const distance = editDistance(name, candidate)
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  return best
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1)
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution))
    }
    previous = current
  }
  return previous[b.length] ?? 0
}

function parseSeeds(text: string): number {
  const seeds = Number(text)
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(seeds) || seeds < 1) {
    throw new SimArgsError(`--seeds expects a positive whole number, got "${text}" (e.g. ${examples.seeds})`)
  }
  return seeds
}

/** The strategy names from every --strategy, comma lists split, duplicates dropped, order kept. */
function parseStrategies(texts: readonly string[]): string[] {
  const names: string[] = []
  for (const text of texts) {
    const parts = text.split(',').map((part) => part.trim())
    if (parts.some((part) => part === '' || /\s/.test(part))) {
      throw new SimArgsError(
        `--strategy expects names separated by commas, got "${text}" (e.g. ${examples.strategy})`,
      )
    }
    for (const part of parts) if (!names.includes(part)) names.push(part)
  }
  return names
}

function parseOut(text: string): string {
  if (text.trim() === '')
    throw new SimArgsError(`--out expects a file path, got "${text}" (e.g. ${examples.out})`)
  return text
}

function parseSweep(text: string): SweepSpec {
  const range = rangeRegExp.exec(text)
  if (range !== null) {
    const [, parameter = '', loText = '', hiText = '', stepsText] = range
    const lo = Number(loText)
    const hi = Number(hiText)
    if (!Number.isFinite(lo) || !Number.isFinite(hi)) {
      throw new SimArgsError(`--sweep bounds must be finite numbers, got "${text}" (e.g. ${examples.sweep})`)
    }
    if (lo === hi) {
      throw new SimArgsError(
        `--sweep range needs two different ends, got "${text}"; for one value write --set ${parameter}=${loText}`,
      )
    }
    if (lo > hi) {
      throw new SimArgsError(
        `--sweep range must go up (lo < hi), got "${text}"; write ${parameter}=${hiText}..${loText}`,
      )
    }
    const steps = stepsText === undefined ? defaultSweepSteps : Number(stepsText)
    if (!Number.isSafeInteger(steps) || steps < 2 || steps > maxSweepSteps) {
      throw new SimArgsError(
        `--sweep steps (the number of values) must be a whole number from 2 to ${maxSweepSteps}, got "${text}" (e.g. --sweep ${parameter}=${loText}..${hiText}:5)`,
      )
    }
    const values = sweepValues(lo, hi, steps)
    if (new Set(values).size !== values.length) {
      throw new SimArgsError(
        `--sweep "${text}" has more steps than the range holds at 6 significant digits; use fewer steps`,
      )
    }
    return { parameter, values }
  }
  const list = listRegExp.exec(text)
  if (list !== null) {
    const [, parameter = '', valuesText = ''] = list
    const values = valuesText.split(',').map(Number)
    if (values.some((value) => !Number.isFinite(value))) {
      throw new SimArgsError(
        `--sweep values must be finite numbers, got "${text}" (e.g. --sweep ${parameter}=1,2,3)`,
      )
    }
    const repeated = values.find((value, index) => values.indexOf(value) !== index)
    if (repeated !== undefined) {
      throw new SimArgsError(`--sweep "${text}" lists ${repeated} twice; list each value once`)
    }
    return { parameter, values }
  }
  throw new SimArgsError(
    `--sweep expects name=lo..hi[:steps] or name=v1,v2,…, got "${text}" (e.g. ${examples.sweep})`,
  )
}

/**
 * `steps` evenly spaced values from lo to hi, both ends exactly as given. When
 * both ends are integers and the steps divide the range evenly the values are
 * exact integers; otherwise the inner values are rounded to 6 significant
 * digits, so results files and chart ticks do not read 0.30000000000000004.
 */
function sweepValues(lo: number, hi: number, steps: number): number[] {
  const intervals = steps - 1
  if (Number.isInteger(lo) && Number.isInteger(hi) && (hi - lo) % intervals === 0) {
    const step = (hi - lo) / intervals
    return Array.from({ length: steps }, (_, index) => lo + index * step)
  }
  return Array.from({ length: steps }, (_, index) => {
    if (index === 0) return lo
    if (index === intervals) return hi
    const value = Number((lo + (index * (hi - lo)) / intervals).toPrecision(6))
    return value === 0 ? 0 : value
  })
}

/** The --set overrides as a record; a parameter set twice is an error, not a silent last-wins. */
function parseSets(texts: readonly string[]): Record<string, number> {
  const given = new Map<string, { text: string; value: number }>()
  for (const text of texts) {
    const match = setRegExp.exec(text)
    const [, name = '', valueText = ''] = match ?? []
    const value = Number(valueText)
    if (match === null || !Number.isFinite(value)) {
      throw new SimArgsError(`--set expects name=value with a number, got "${text}" (e.g. ${examples.set})`)
    }
    const earlier = given.get(name)
    if (earlier !== undefined) {
      throw new SimArgsError(`--set ${name} is given twice ("${earlier.text}" and "${text}"); keep one`)
    }
    given.set(name, { text, value })
  }
  // fromEntries defines own properties, so even a parameter named __proto__ stays data.
  return Object.fromEntries([...given].map(([name, { value }]) => [name, value]))
}
