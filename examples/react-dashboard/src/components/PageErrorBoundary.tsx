import { Component, type ReactNode } from 'react'
import { ErrorAlert } from './ErrorAlert'

interface PageErrorBoundaryProps {
  children: ReactNode
}

/** Keeps the header (and the way back) on screen when a page fails to render, and shows why. */
export class PageErrorBoundary extends Component<PageErrorBoundaryProps, { error: unknown }> {
  override state: { error: unknown } = { error: undefined }

  static getDerivedStateFromError(error: unknown) {
    return { error }
  }

  override render() {
    if (this.state.error === undefined) return this.props.children
    return (
      <div className="panel">
        <h2>This page failed</h2>
        <ErrorAlert error={this.state.error} />
        <p>
          <a href="#/">← Overview</a>
        </p>
      </div>
    )
  }
}
