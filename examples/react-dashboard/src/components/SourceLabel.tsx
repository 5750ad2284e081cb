import { useSource } from '@gridforge/react-hooks'
import { useSourceMetadata } from '../storedContent'

/** `#1 Word count`: a source's id, and its name once its metadata is read (the id alone until then). */
export function SourceLabel({ sourceId }: { sourceId: number }) {
  const source = useSource({ sourceId })
  const metadata = useSourceMetadata(source.data)
  const name = metadata.data?.name
  return <>{name === undefined ? `#${sourceId}` : `#${sourceId} ${name}`}</>
}
