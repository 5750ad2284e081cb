import { useStoredText } from '../storedContent'
import { ErrorAlert } from './ErrorAlert'

/** Logs larger than this are not shown in the page. */
const maxLogBytes = 1024 * 1024

/** The container's logs, read from the store through the receipt's `logsCID`. */
export function TaskLogs({ cid, testId }: { cid: string; testId?: string | undefined }) {
  const logs = useStoredText(cid, { maxBytes: maxLogBytes })
  return (
    <section className="logs">
      <h4>Logs</h4>
      <ErrorAlert error={logs.error} />
      {logs.isPending && !logs.isError && <p className="muted">Reading logs…</p>}
      {logs.data !== undefined && (
        <pre data-testid={testId} className={logs.data === '' ? 'empty' : undefined}>
          {logs.data === '' ? '(no output)' : logs.data}
        </pre>
      )}
    </section>
  )
}
