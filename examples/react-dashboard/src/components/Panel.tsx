import type { ReactNode } from 'react'

interface PanelProps {
  title: string
  children: ReactNode
  testId?: string | undefined
}

/** A titled card. */
export function Panel({ title, children, testId }: PanelProps) {
  return (
    <section className="panel" data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}
