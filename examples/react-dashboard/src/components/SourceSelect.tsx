import { useSources } from '@gridforge/react-hooks'
import { useEffect } from 'react'
import { ErrorAlert } from './ErrorAlert'
import { SourceOption } from './SourceOption'

interface SourceSelectProps {
  id: string
  /** The chosen source id as a string (`''` before the sources load). */
  value: string
  onChange: (sourceId: string) => void
}

/** The active sources (what the market takes tasks for), by id and name. */
export function SourceSelect({ id, value, onChange }: SourceSelectProps) {
  const sources = useSources({ active: true })
  const first = sources.data?.[0]

  // Choose the first source once they load, or again when the chosen one is deactivated.
  useEffect(() => {
    if (sources.data === undefined) return
    if (!sources.data.some((source) => String(source.sourceId) === value)) {
      onChange(first === undefined ? '' : String(first.sourceId))
    }
  }, [sources.data, first, value, onChange])

  return (
    <>
      <select
        id={id}
        data-testid="submit-source"
        value={value}
        disabled={!sources.data?.length}
        onChange={(event) => onChange(event.target.value)}
      >
        {sources.isPending && <option value="">Loading sources…</option>}
        {sources.data?.length === 0 && <option value="">No active source</option>}
        {sources.data?.map((source) => (
          <SourceOption key={source.sourceId} source={source} />
        ))}
      </select>
      <ErrorAlert error={sources.error} />
    </>
  )
}
