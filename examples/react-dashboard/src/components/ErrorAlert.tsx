import { revertSentence } from '../revertSentence'

interface ErrorAlertProps {
  /** The error to show; nothing is rendered without one. */
  error: unknown
  testId?: string | undefined
}

/**
 * An error as the SDK (and viem) shape it: the one-line `shortMessage`, then the
 * `metaMessages` that say what to do next. A revert about money is led by a
 * sentence in GRID, with the decoded revert below it.
 */
export function ErrorAlert({ error, testId }: ErrorAlertProps) {
  if (error === null || error === undefined) return null
  const { shortMessage, metaMessages } = describe(error)
  const sentence = revertSentence(error)
  return (
    <div className="alert" role="alert" data-testid={testId}>
      <strong>{sentence ?? shortMessage}</strong>
      {sentence !== undefined && <div className="alert-meta">{shortMessage}</div>}
      {metaMessages.length > 0 && <div className="alert-meta">{metaMessages.join('\n')}</div>}
    </div>
  )
}

function describe(error: unknown): { shortMessage: string; metaMessages: readonly string[] } {
  if (typeof error !== 'object' || error === null) return { shortMessage: String(error), metaMessages: [] }
  const { shortMessage, message, metaMessages } = error as {
    shortMessage?: unknown
    message?: unknown
    metaMessages?: unknown
  }
  return {
    shortMessage:
      typeof shortMessage === 'string' ? shortMessage : typeof message === 'string' ? message : String(error),
    metaMessages: Array.isArray(metaMessages) ? metaMessages.filter((line) => typeof line === 'string') : [],
  }
}
