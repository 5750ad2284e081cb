import { NotADirectoryError } from '@gridforge/sdk/storage'
import { useStoredDirectory } from '../storedContent'
import { ErrorAlert } from './ErrorAlert'
import { OutputFile } from './OutputFile'

/** The task's output: a directory's files (small ones shown), or a single file. */
export function TaskOutput({ cid }: { cid: string }) {
  const listing = useStoredDirectory(cid)
  const isFile = listing.error instanceof NotADirectoryError
  return (
    <section className="output">
      <h4>Output</h4>
      {isFile ? <OutputFile name="(file)" cid={cid} /> : <ErrorAlert error={listing.error} />}
      {listing.isPending && <p className="muted">Reading output…</p>}
      {listing.data?.length === 0 && <p className="muted">(empty directory)</p>}
      {listing.data?.map((entry) =>
        entry.type === 'file' ? (
          <OutputFile key={entry.name} name={entry.name} cid={entry.cid} size={entry.size} />
        ) : (
          <p key={entry.name} className="muted">
            {entry.name}/ <code>{entry.cid}</code>
          </p>
        ),
      )}
    </section>
  )
}
