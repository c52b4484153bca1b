'use client'
import { useId, useState, type ForwardedRef } from 'react'
import { useRuns, type DeferredToolId, type Run, type ToolId } from '../react/index.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { useFormat } from './format.js'
import { JobProgress } from './JobProgress.js'
import { useMessages } from './useMessages.js'

export interface RecentRunsProps extends RootProps {
  /** Only this tool's runs. */
  tool?: ToolId
  /** Only the runs of `useTool(tool, { tag })` with this tag. */
  tag?: string
  /** @deprecated Use `tag`; kept working through 0.x. */
  scope?: string
}

/** Between a row's title, status and time: a dot to the eye, a comma's pause to a screen reader. */
const SEPARATOR = (
  <>
    <span aria-hidden="true"> · </span>
    <span className="ct-visually-hidden">, </span>
  </>
)

/**
 * The journal's runs for the key in effect, newest first: status, time taken, and on "Show" the
 * job followed live with its files. "Dismiss" forgets a run. With none, it says where runs will
 * appear (the journal keeps deferred runs, jobs, not answers that come at once). It has no heading of its own: the page titles it, and names the region with
 * `aria-labelledby` (pointing at that title) or `aria-label`; the default name is
 * `messages.runs.title`.
 *
 * Class names: `ct-recent-runs`, `__list`, `__empty`, `__item`, `__title`, `__status`,
 * `__elapsed`, `__actions`; `data-state` holds each run's phase.
 *
 * @example
 * <h2 id="runs-title">Your runs</h2>
 * <RecentRuns aria-labelledby="runs-title" />
 */
export const RecentRuns = withRef(function RecentRuns(
  { tool, tag, scope, className, ...root }: RecentRunsProps,
  ref: ForwardedRef<HTMLElement>,
) {
  const messages = useMessages()
  const format = useFormat()
  const { runs, dismiss } = useRuns({ tool, tag: tag ?? scope })
  const [open, setOpen] = useState<string>()
  const id = useId()

  const item = (run: Run) => {
    const titleId = `${id}-${run.id}`
    const finished = run.phase === 'succeeded' || run.phase === 'failed'
    return (
      <li key={run.id} className="ct-recent-runs__item" data-state={run.phase}>
        <p className="ct-recent-runs__title" id={titleId}>
          <strong>{messages.tools[run.tool]?.title ?? run.tool}</strong>
          {SEPARATOR}
          <span className="ct-recent-runs__status">{messages.phase[run.phase]}</span>
          {finished && (
            <>
              {SEPARATOR}
              <span className="ct-recent-runs__elapsed">{messages.job.elapsed(format.clock(run.updatedAt - run.createdAt))}</span>
            </>
          )}
        </p>
        <div className="ct-recent-runs__actions">
          {run.jobId && (
            <button
              type="button"
              className="ct-button ct-button--secondary"
              aria-expanded={open === run.id}
              aria-describedby={titleId}
              onClick={() => setOpen(open === run.id ? undefined : run.id)}
            >
              {open === run.id ? messages.runs.hide : messages.runs.show}
            </button>
          )}
          <button type="button" className="ct-button ct-button--secondary" aria-describedby={titleId} onClick={() => dismiss(run)}>
            {messages.runs.dismiss}
          </button>
        </div>
        {open === run.id && run.jobId && (
          <JobProgress tool={run.tool as DeferredToolId} jobId={run.jobId} startedAt={finished ? undefined : run.createdAt} />
        )}
      </li>
    )
  }

  return (
    <section
      aria-label={root['aria-labelledby'] ? undefined : messages.runs.title}
      {...root}
      ref={ref}
      className={cx('ct-recent-runs', className)}
    >
      {runs.length ? (
        <ol className="ct-recent-runs__list">{runs.map(item)}</ol>
      ) : (
        <p className="ct-recent-runs__empty">{messages.runs.empty}</p>
      )}
    </section>
  )
})
