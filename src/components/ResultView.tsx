'use client'
import { type ForwardedRef, type ReactNode } from 'react'
import { type ToolId, type ToolResult } from '../react/index.js'
import { ArtifactViewer } from './ArtifactViewer.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { useFormat } from './format.js'
import { lazyPart } from './lazyPart.js'
import type { ResultWords } from './ResultBody.js'
import { useCoreMessages } from './useMessages.js'
import { WaitNotice } from './WaitNotice.js'

export interface ResultViewProps<T extends ToolId = ToolId> extends RootProps {
  /** A synchronous tool's `Result` or a deferred tool's succeeded `Job`, its `data` as declared in `Register`. */
  result: ToolResult<T>
  /** Show the result links at all. Default true. */
  showArtifacts?: boolean
  /** How to show one result link; default an `<ArtifactViewer>`. */
  renderArtifact?: (url: string) => ReactNode
}

type ViewProps = Omit<ResultViewProps, 'ref'> & ResultWords

/** The card while its code comes: its region and heading, busy; offline, the wait for the connection. */
function ResultStand({ result, className, rootRef, messages, failed }: ViewProps & { failed: boolean }) {
  return (
    <section
      ref={rootRef}
      aria-label={messages.runner.resultOf(messages.tools[result.tool]?.title ?? result.tool)}
      aria-busy={!failed || undefined}
      className={cx('ct-result', className)}
    >
      <h3 className="ct-result__heading">{messages.runner.result}</h3>
      <WaitNotice waiting={failed ? { reason: 'offline' } : null} />
    </section>
  )
}

const view = lazyPart<ViewProps>(() => import('./ResultBody.js').then((chunk) => chunk.ResultBody), ResultStand)

/**
 * A finished run, readably: the body's fields as a list (labels and numbers in the messages'
 * locale; the result's file links, however the body writes them, left to the viewers below),
 * then each file in an `<ArtifactViewer>`.
 *
 * Its code is a chunk of its own, fetched when a result is first shown (a `<ToolRunner>` fetches
 * it on idle): until it comes, the card shows its heading, `aria-busy`. Should that fetch fail
 * offline, it says it waits for the connection.
 *
 * Classes: `ct-result`, parts `__heading`, `__fields`, `__field`, `__list`, `__text` (what is
 * nested too deep to lay out), `__artifacts`.
 */
export const ResultView = withRef(function ResultView<T extends ToolId = ToolId>(props: ResultViewProps<T>, ref: ForwardedRef<HTMLElement>) {
  return <view.Part {...(props as ResultViewProps)} rootRef={ref} messages={useCoreMessages()} format={useFormat()} ArtifactViewer={ArtifactViewer} />
})

/** Fetches the card's code ahead of a result's first showing. */
export const loadResultView = view.load
