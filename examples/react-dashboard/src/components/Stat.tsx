interface StatProps {
  label: string
  /** `undefined` while loading. */
  value: string | undefined
  testId?: string | undefined
}

/** One labelled figure. */
export function Stat({ label, value, testId }: StatProps) {
  return (
    <div className="stat">
      <div className="stat-label">{label}</div>
      <div className="stat-value" data-testid={testId}>
        {value ?? '–'}
      </div>
    </div>
  )
}
