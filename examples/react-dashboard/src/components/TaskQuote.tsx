import { useQuoteTask } from '@gridforge/react-hooks'
import { claimRefusalReasons, formatDuration, type TaskQuote as Quote } from '@gridforge/sdk'
import { formatGridPerGpuSecond, tokenAmount } from '../amount'
import { describeRefusals, reasonLabels, refusalsOf } from '../quoteReasons'
import { useDebounced } from '../useDebounced'

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
  const perGpuSecond = formatGridPerGpuSecond
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

function shortMessage(error: unknown): string {
  const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown }
  return typeof shortMessage === 'string'
    ? shortMessage
    : typeof message === 'string'
      ? message
      : String(error)
}
