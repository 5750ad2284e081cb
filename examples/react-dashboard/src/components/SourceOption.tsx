import type { Source } from '@gridforge/sdk'
import { useSourceMetadata } from '../storedContent'

/** `#3 word-count`: the source id, and its name once its metadata is read from the store. */
export function SourceOption({ source }: { source: Source }) {
  const metadata = useSourceMetadata(source)
  const name = metadata.data?.name
  return (
    <option value={String(source.sourceId)}>
      {name === undefined ? `#${source.sourceId}` : `#${source.sourceId} ${name}`}
    </option>
  )
}
