'use client'
import { useId, useState } from 'react'
import { useRuns, type DeferredToolId, type Run, type ToolId } from '../react/index.js'
import { cx } from './classNames.js'
import { useFormat } from './format.js'
import { JobProgress } from './JobProgress.js'
import { useMessages } from './useMessages.js'

export interface RecentRunsProps {
  /** Only this tool's runs. */
  tool?: ToolId
  /** Only the runs of `useTool(tool, { scope })` with this scope. */
  scope?: string
  className?: string
}

/**
 * The journal's runs for the key in effect, newest first: status, time taken, and on "Show" the
 * job followed live with its files. "Dismiss" forgets a run. Class names: `ct-recent-runs`,
 * `__item`, `__title`, `__status`, `__elapsed`, `__actions`; `data-state` holds each run's phase.
 */
export function RecentRuns({ tool, scope, className }: RecentRunsProps) {
  const messages = useMessages()
  const format = useFormat()
  const { runs, dismiss } = useRuns({ tool, scope })
  const [open, setOpen] = useState<string>()
  const id = useId()

  const item = (run: Run) => {
    const titleId = `${id}-${run.id}`
    const finished = run.phase === 'succeeded' || run.phase === 'failed'
    return (
      <li key={run.id} className="ct-recent-runs__item" data-state={run.phase}>
        <p className="ct-recent-runs__title" id={titleId}>
          <strong>{messages.tools[run.tool]?.title ?? run.tool}</strong>{' '}
          <span className="ct-recent-runs__status">{messages.phase[run.phase]}</span>
          {finished && (
            <span className="ct-recent-runs__elapsed"> {messages.job.elapsed(format.clock(run.updatedAt - run.createdAt))}</span>
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
    <section className={cx('ct-recent-runs', className)} aria-labelledby={`${id}-title`}>
      <h2 className="ct-recent-runs__heading" id={`${id}-title`}>
        {messages.runs.title}
      </h2>
      {runs.length ? <ol className="ct-recent-runs__list">{runs.map(item)}</ol> : <p className="ct-hint">{messages.runs.empty}</p>}
    </section>
  )
}
