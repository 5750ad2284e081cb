import { useQuoteTask } from '@gridforge/react-hooks'
import {
  type ClaimRefusal,
  type ClaimRefusalReason,
  claimRefusalReasons,
  formatDuration,
  type TaskQuote as Quote,
} from '@gridforge/sdk'
import { formatGrid, tokenAmount } from '../amount'
import { useDebounced } from '../useDebounced'

/** What each refusal reason is called (the CLI's `gridforge task quote` wording). */
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

/** The terms as the form holds them, typed or not yet. */
export interface QuoteTerms {
  sourceId: number | undefined
  maxPayment: string
  replicas: number | undefined
}

/**
 * Before anything is sent: how many providers could take the task now at this price, the source's
 * recent prices per GPU-second and time to claim, and when too few could, why, reason by reason.
 * Quotes the terms once the user stops typing for a moment; a quote that fails is a note, never a
 * reason not to submit.
 */
export function TaskQuote({ terms }: { terms: QuoteTerms }) {
  const settled = useDebounced(terms, 400)
  const maxPayment = settled.maxPayment.trim()
  const quote = useQuoteTask({
    sourceId: settled.sourceId,
    maxPayment: maxPayment === '' ? undefined : tokenAmount(maxPayment),
    replicas: settled.replicas,
    query: { retry: false, placeholderData: (previous) => previous },
  })
  if (settled.sourceId === undefined || maxPayment === '') return null
  if (quote.error)
    return (
      <p className="quote muted" data-testid="submit-quote-error">
        No quote for these terms ({shortMessage(quote.error)}); you can still submit.
      </p>
    )
  if (quote.data === undefined)
    return (
      <p className="quote muted" data-testid="submit-quote">
        Quoting…
      </p>
    )
  return <QuoteSummary quote={quote.data} stale={quote.isPlaceholderData || quote.isFetching} />
}

function QuoteSummary({ quote, stale }: { quote: Quote; stale: boolean }) {
  const { terms, history, eligible } = quote
  const needed = terms.replicas
  const perGpuSecond = (value: bigint) => `${formatGrid(value)}/GPU-s`
  const reasons = claimRefusalReasons.filter((reason) => quote.ineligible.byReason[reason].length > 0)
  return (
    <div className={`quote ${eligible.count < needed ? 'alert' : 'muted'}`} data-testid="submit-quote">
      <div>
        <strong data-testid="submit-quote-eligible">{eligible.count}</strong> of {quote.providers} providers
        could take it now at {perGpuSecond(terms.pricePerGpuSecond)}
        {needed > 1 && ` (it needs ${needed})`}
        {stale && <span className="muted"> · updating…</span>}
      </div>
      <div data-testid="submit-quote-history">
        {history.pricePerGpuSecond === undefined
          ? `Recent prices: none (${history.reason})`
          : `Recent prices (last ${history.tasks} claimed): ${perGpuSecond(history.pricePerGpuSecond.min)} to ${perGpuSecond(history.pricePerGpuSecond.max)}, median ${perGpuSecond(history.pricePerGpuSecond.median)}`}
        {' · '}
        {history.timeToClaimSec === undefined
          ? 'expected time to claim: unknown'
          : `expected time to claim: ${formatDuration(history.timeToClaimSec)}`}
      </div>
      {eligible.count < needed && reasons.length > 0 && (
        <ul data-testid="submit-quote-reasons">
          {reasons.map((reason) => (
            <li key={reason} data-testid={`submit-quote-reason-${reason}`}>
              {reasonLabels[reason]} ({quote.ineligible.byReason[reason].length}):{' '}
              {describeRefusals(refusalsOf(quote, reason), terms.sourceId)}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** Every refusal for `reason`, one per provider it holds back. */
function refusalsOf<reason extends ClaimRefusalReason>(quote: Quote, reason: reason) {
  return quote.ineligible.providers.flatMap((entry) =>
    entry.refusals.filter(
      (refusal): refusal is Extract<ClaimRefusal, { reason: reason }> => refusal.reason === reason,
    ),
  )
}

/** The numbers behind a reason: what the task asks against what the providers held back offer. */
function describeRefusals(refusals: ClaimRefusal[], sourceId: number): string {
  const distinct = (values: string[]) => [...new Set(values)].join(', ')
  const first = refusals[0]
  if (first === undefined) return ''
  switch (first.reason) {
    case 'gpuCount':
    case 'vram':
    case 'computeCapability': {
      const unit = first.reason === 'gpuCount' ? ' GPUs' : first.reason === 'vram' ? ' MiB per GPU' : ''
      const offers = refusals.flatMap((refusal) => ('offered' in refusal ? [String(refusal.offered)] : []))
      return `the task needs ${first.required}${unit}, they offer ${distinct(offers)}`
    }
    case 'priceFloor': {
      const floors = refusals.flatMap((refusal) => ('floor' in refusal ? [formatGrid(refusal.floor)] : []))
      return `it pays ${formatGrid(first.price)}/GPU-s, below their floors (${distinct(floors)}/GPU-s): raise the max payment`
    }
    case 'collateral': {
      const stakes = refusals.flatMap((refusal) =>
        'available' in refusal ? [formatGrid(refusal.available)] : [],
      )
      return `a claim locks ${formatGrid(first.required)} of stake, they have ${distinct(stakes)} available: a lower max payment locks less`
    }
    case 'reputation': {
      const records = refusals.flatMap((refusal) =>
        'completed' in refusal ? [`${refusal.completed} completed, ${refusal.successBps / 100} %`] : [],
      )
      return `the task asks for ${first.minCompleted} completed and ${first.minSuccessBps / 100} % success, they have ${distinct(records)}`
    }
    case 'notSubscribed':
      return `not in source #${sourceId}'s pool: providers choose the sources they serve`
    case 'paused':
      return 'paused by their operators: they take no new tasks'
    case 'alreadyClaimed':
      return 'they hold a slot of this task: nobody claims twice'
  }
}

function shortMessage(error: unknown): string {
  const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown }
  return typeof shortMessage === 'string'
    ? shortMessage
    : typeof message === 'string'
      ? message
      : String(error)
}
