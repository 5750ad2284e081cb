import { useStoredText } from '../storedContent'
import { ErrorAlert } from './ErrorAlert'

/** Files up to this size are shown in the page; larger ones only by CID. */
const maxShownBytes = 64 * 1024

interface OutputFileProps {
  name: string
  cid: string
  /** Size in bytes from the directory listing, when known. */
  size?: number | undefined
}

/** One output file: its name, CID and size, and its text when it is small. */
export function OutputFile({ name, cid, size }: OutputFileProps) {
  const small = size === undefined || size <= maxShownBytes
  const text = useStoredText(small ? cid : undefined, { maxBytes: maxShownBytes })
  return (
    <details className="output-file" open={small}>
      <summary>
        {name} <code className="muted">{cid}</code>
        {size !== undefined && <span className="muted"> · {size} bytes</span>}
      </summary>
      {text.data !== undefined && <pre>{text.data}</pre>}
      {!small && <p className="muted">Too large to show here.</p>}
      <ErrorAlert error={text.error} />
    </details>
  )
}
