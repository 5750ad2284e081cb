import { examples, formatDate, table, UsageError } from '@gridforge/cli-kit'
import type { Command } from 'commander'
import type { ClaimRefusal, ClaimRefusalReason } from '../../tasks/claimRefusals.js'
import { claimRefusalReasons } from '../../tasks/claimRefusals.js'
import type { ClaimWindowClosure } from '../../tasks/quotedTerms.js'
import { type QuoteTaskParameters, quoteTask, type TaskQuote } from '../../tasks/quoteTask.js'
import { formatAmount, type TokenInfo } from '../../utils/amount.js'
import { formatDuration } from '../../utils/duration.js'
import type { Context } from '../context.js'
import { parseId, parseInteger, parseProbabilityBps } from '../parse.js'
import { type TermFlags, termsFromFlags } from './termFlags.js'

/** The flags of `task quote`, as commander parses them: the terms flags of `task submit`, or `--task`. */
export interface QuoteOptions extends TermFlags {
  task?: bigint
  source?: number
  maxPayment?: string
  history?: number
}

const termFlags = [
  'source',
  'maxPayment',
  'pricePerSecond',
  'replicas',
  'minGpus',
  'minVramMib',
  'minComputeCapability',
  'maxRuntime',
  'minSuccessBps',
  'minCompleted',
  'audit',
] as const satisfies readonly (keyof QuoteOptions)[]

/** What the table calls each refusal reason. */
const reasonLabels: Record<ClaimRefusalReason, string> = {
  paused: 'paused',
  notSubscribed: 'not subscribed',
  gpuCount: 'GPU count',
  vram: 'VRAM',
  computeCapability: 'compute capability',
  reputation: 'reputation',
  collateral: 'collateral',
  priceFloor: 'price floor',
  alreadyClaimed: 'already on the task',
}

/** `gridforge task quote`: adds the command to the `task` group. */
export function addQuoteCommand(task: Command, contextOf: (command: Command) => Context): void {
  task
    .command('quote')
    .description(
      'before any money moves: how many providers could take a task now at this price, what recent tasks of the source paid and waited, and why the others could not; or, with --task, why an open task waits (from --indexer, else the chain)',
    )
    .option('--task <id>', 'an open task: why is nobody taking it?', parseId)
    .option('--source <id>', 'the source to run', parseInteger)
    .option('--max-payment <amount>', 'most paid to each replica, in token units (e.g. 5)')
    .option('--price-per-second <amount>', 'metered price; omitted: a fixed price of --max-payment')
    .option('--replicas <n>', 'providers that run it, 1 to 7', parseInteger)
    .option('--min-gpus <n>', 'least GPUs (stricter than the source)', parseInteger)
    .option('--min-vram-mib <MiB>', 'least memory per GPU, in MiB', parseInteger)
    .option('--min-compute-capability <cc>', 'least CUDA compute capability × 10, e.g. 80', parseInteger)
    .option('--max-runtime <duration>', 'longest run, e.g. 30m (shorter than the source)')
    .option('--min-success-bps <bps>', 'least success rate of a claimant, in basis points', parseInteger)
    .option('--min-completed <n>', 'least tasks a claimant has completed', parseInteger)
    .option('--audit <p>', 'probability that the result is audited, e.g. 0.25', parseProbabilityBps)
    .option('--history <n>', 'recent claimed tasks of the source to measure (default 20)', parseInteger)
    .addHelpText(
      'after',
      examples(
        'gridforge task quote --source 1 --max-payment 5',
        'gridforge task quote --source 1 --max-payment 2 --price-per-second 0.01 --min-gpus 1',
        'gridforge task quote --task 42   # why is nobody taking task 42?',
        'gridforge --json task quote --source 1 --max-payment 5',
      ),
    )
    .action(async (options: QuoteOptions, command: Command) => {
      const context = contextOf(command)
      const [client, deployment, token] = await Promise.all([
        context.client(),
        context.deployment(),
        context.token(),
      ])
      const parameters = quoteParameters(options)
      context.terminal.progress('reading the providers and recent tasks…')
      const quote = await quoteTask(client, {
        deployment,
        indexer: context.indexer(),
        ...parameters,
      } as QuoteTaskParameters)
      context.terminal.result(quote, () => describeQuote(quote, token))
    })
}

/** The action's parameters from the flags: an open task, or the terms of `task submit`. */
function quoteParameters(options: QuoteOptions) {
  const history = options.history === undefined ? {} : { historySize: options.history }
  if (options.task !== undefined) {
    const mixed = termFlags.filter((name) => options[name] !== undefined)
    if (mixed.length > 0)
      throw new UsageError('pass either --task or the terms (--source, --max-payment, …), not both', [
        "An open task's terms are read from the chain.",
      ])
    return { taskId: options.task, ...history }
  }
  if (options.source === undefined || options.maxPayment === undefined)
    throw new UsageError('task quote needs --source and --max-payment (or --task <id> for an open task)')
  return {
    sourceId: options.source,
    maxPayment: options.maxPayment,
    ...termsFromFlags(options),
    ...history,
  }
}

/** A quote as lines: the terms, the eligible count, the history, then a table of reasons with what would help. */
export function describeQuote(quote: TaskQuote, token: TokenInfo): string[] {
  const { terms, history } = quote
  const perGpuSecond = (value: bigint) => `${formatAmount(value, token)}/GPU-s`
  const subject = quote.taskId === undefined ? `a task of source ${terms.sourceId}` : `task ${quote.taskId}`
  const needs = terms.replicas > 1 ? ` (it needs ${terms.replicas})` : ''
  const lines = [
    `${subject} pays ${perGpuSecond(terms.pricePerGpuSecond)} and locks ${formatAmount(terms.collateral, token)} of collateral per claim`,
    `eligible now: ${quote.eligible.count} of ${quote.providers} registered providers${needs}`,
    ...(quote.closed === undefined ? [] : [describeClosure(quote.closed, quote.taskId)]),
    history.pricePerGpuSecond === undefined
      ? `recent prices: none (${history.reason})`
      : `recent prices (last ${history.tasks} claimed): min ${perGpuSecond(history.pricePerGpuSecond.min)}, median ${perGpuSecond(history.pricePerGpuSecond.median)}, max ${perGpuSecond(history.pricePerGpuSecond.max)}`,
    history.timeToClaimSec === undefined
      ? 'expected time to claim: unknown (no claimed task of the source to measure)'
      : `expected time to claim: ${formatDuration(history.timeToClaimSec)} (median of the last ${history.tasks})`,
  ]
  const rows = claimRefusalReasons
    .filter((reason) => quote.ineligible.byReason[reason].length > 0)
    .map((reason) => [
      reasonLabels[reason],
      quote.ineligible.byReason[reason].length,
      suggestion(reason, quote, token),
    ])
  if (rows.length === 0) return lines
  return [
    ...lines,
    '',
    'why not (a provider may fail several):',
    ...table(['dimension', 'providers', 'what would help'], rows),
  ]
}

/** Why nobody can claim an open task, whatever they offer, and what to do. */
function describeClosure(closed: ClaimWindowClosure, taskId: bigint | undefined): string {
  const deadline = formatDate(new Date(closed.deadline * 1000))
  const again = `cancel it (gridforge task cancel ${taskId}) and submit it again with a later --deadline`
  return closed.reason === 'deadlinePassed'
    ? `closed: its deadline ${deadline} passed, nobody can claim it; it can only expire (refunded)`
    : `closed: a claim now would be due ${formatDate(new Date(closed.dueAt * 1000))}, after its deadline ${deadline}, so nobody can claim it: ${again}`
}

/** The refusals of `reason` among providers that fail only on it: what would make them eligible. */
function soleRefusals<reason extends ClaimRefusalReason>(quote: TaskQuote, reason: reason) {
  return quote.ineligible.providers
    .filter((entry) => entry.refusals.length === 1 && entry.refusals[0]?.reason === reason)
    .map((entry) => entry.refusals[0] as Extract<ClaimRefusal, { reason: reason }>)
}

/** One line on what would win the providers a reason holds back. */
function suggestion(reason: ClaimRefusalReason, quote: TaskQuote, token: TokenInfo): string {
  const { terms } = quote
  const gain = (count: number) => (count === 0 ? '' : ` (${count} more would qualify)`)
  switch (reason) {
    case 'priceFloor': {
      const sole = soleRefusals(quote, 'priceFloor')
      // The cheapest floor among providers that only the price holds back, else among all that it does.
      const floors = (sole.length > 0 ? sole : allFloors(quote))
        .map((refusal) => refusal.floor)
        .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      const floor = floors[0]
      if (floor === undefined) return ''
      const gpus = BigInt(Math.max(1, terms.requirements.minGpus))
      const cheapest = sole.filter((refusal) => refusal.floor === floor).length
      // pricePerGpuSecond divides down: these are the least amounts that reach the floor.
      return terms.pricePerSecond > 0n
        ? `raise --price-per-second to at least ${formatAmount(floor * gpus, token)}${gain(cheapest)}`
        : `raise --max-payment to at least ${formatAmount(floor * gpus * BigInt(Math.max(1, terms.requirements.maxRuntimeSec)), token)}${gain(cheapest)}`
    }
    case 'collateral':
      return `their available stake is below the ${formatAmount(terms.collateral, token)} a claim locks: a lower --max-payment locks less${gain(soleRefusals(quote, 'collateral').length)}`
    case 'reputation':
      return `lower --min-completed (${terms.gates.minCompleted}) or --min-success-bps (${terms.gates.minSuccessBps})${gain(soleRefusals(quote, 'reputation').length)}`
    case 'gpuCount':
      return `the task needs ${terms.requirements.minGpus} GPUs: ask for fewer if the source allows${gain(soleRefusals(quote, 'gpuCount').length)}`
    case 'vram':
      return `the task needs ${terms.requirements.minVramMiB} MiB per GPU: ask for less if the source allows${gain(soleRefusals(quote, 'vram').length)}`
    case 'computeCapability':
      return `the task needs compute capability ${terms.requirements.minComputeCapability}: ask for less if the source allows${gain(soleRefusals(quote, 'computeCapability').length)}`
    case 'notSubscribed':
      return `not in source ${terms.sourceId}'s pool: providers choose the sources they serve`
    case 'paused':
      return 'paused by their operators: they take no new tasks'
    case 'alreadyClaimed':
      return 'they hold a slot of this task: nobody claims twice'
  }
}

/** Every price-floor refusal, whatever else holds its provider back. */
function allFloors(quote: TaskQuote) {
  return quote.ineligible.providers.flatMap((entry) =>
    entry.refusals.filter((refusal) => refusal.reason === 'priceFloor'),
  )
}
