import type { ForwardedRef, HTMLAttributes, ReactNode } from 'react'
import type { CoreMessages } from '../react/internal.js'

interface ArtifactLoadingProps {
  root: HTMLAttributes<HTMLDivElement> & { ref?: ForwardedRef<HTMLDivElement> }
  className: string
  messages: CoreMessages
  /** Said under the status: the wait for the connection when the viewer's code could not come. */
  children?: ReactNode
}

/**
 * An `<ArtifactViewer>` whose file (or whose own code, a chunk of its own) is on its way: one
 * look for both, so the code's arrival changes nothing a person sees.
 */
export function ArtifactLoading({ root, className, messages, children }: ArtifactLoadingProps) {
  return (
    <div {...root} className={className} data-state="loading" aria-busy="true">
      <p className="ct-artifact-viewer__status" role="status">
        <span className="ct-artifact-viewer__spinner" aria-hidden="true" />
        {messages.artifact.loading}
      </p>
      {children}
    </div>
  )
}
