'use client'
import { useState, type ComponentType, type ForwardedRef } from 'react'
import type { ErrorNoticeProps } from './ErrorNotice.js'
import type { ArtifactViewerProps } from './ArtifactViewer.js'
import type { Format } from './format.js'
import type { JobProgressProps } from './JobProgress.js'
import type { Job, JobPhase, ToolsError, Waiting } from '../react/index.js'
import type { CoreMessages } from '../react/internal.js'
import type { WaitNoticeProps } from './WaitNotice.js'
import { AlertIcon } from './icons.js'
import type { JobBar, JobHeader } from './jobParts.js'

// `<JobProgress>`'s own code: a chunk of its own, fetched when a job is first shown (or on idle).
// The job's read, its clock and what it needs of the page's modules (strings, formats, notices,
// the file viewer) come from the wrapper, which has them anyway: a bundler that splits by module (esbuild)
// would otherwise load them with a page's hooks alone.

/** What the wrapper works out with the page's modules: the job as read, strings, formats, parts. */
export interface JobWords {
  messages: CoreMessages
  format: Format
  tool: string | undefined
  job: Job | undefined
  /** Why the job could not be read. */
  error: ToolsError | null
  waiting: Waiting | null | undefined
  /** The job's own failure, as an error for the notice. */
  failure: ToolsError | undefined
  terminal: boolean
  /** Reads the job again, after a failed read. */
  refetch: () => void
  /** Milliseconds since the job started (or was first shown), counted by the wrapper. */
  elapsed: number
  JobHeader: typeof JobHeader
  JobBar: typeof JobBar
  ErrorNotice: ComponentType<ErrorNoticeProps>
  WaitNotice: ComponentType<WaitNoticeProps>
  ArtifactViewer: ComponentType<ArtifactViewerProps>
  rootRef: ForwardedRef<HTMLDivElement>
}

/** `data-state`: before the first read, a job's phase, or why there is no job to show. */
type JobProgressState = 'checking' | JobPhase | 'not-found' | 'error'

/** States with a bar: the job is coming, under way or done. */
const WITH_BAR: ReadonlySet<JobProgressState> = new Set(['checking', 'pending', 'running', 'succeeded'])

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ')

export function JobProgressView(props: Omit<JobProgressProps, keyof JobWords | 'jobId' | 'pollInterval' | 'ref'> & JobWords) {
  const { showArtifacts = true, renderArtifact, startedAt, onRetry, className, rootRef, messages, format, ...rest } = props
  const { tool, job, error, waiting, failure, terminal, refetch, elapsed, ErrorNotice, WaitNotice, ArtifactViewer, JobHeader, JobBar, ...root } = rest
  const state: JobProgressState =
    error?.kind === 'not-found' ? 'not-found' : error ? 'error' : (job?.phase ?? 'checking')

  // A job first seen finished has no known duration: show none rather than a made-up "0:00".
  const [sawActive, setSawActive] = useState(false)
  if (job && !terminal && !sawActive) setSawActive(true)
  const showElapsed = startedAt !== undefined || sawActive

  // Each phase is announced once, when it is reached: polls that change nothing say nothing.
  const [announced, setAnnounced] = useState<{ phase?: JobPhase; text: string }>({ text: '' })
  if (job && job.phase !== announced.phase) setAnnounced({ phase: job.phase, text: messages.job.announce[job.phase] })

  // A queued job has done nothing yet, and a running one reporting 0 has told nothing: no "0% complete".
  const fraction = job?.phase === 'succeeded' ? 1 : job?.phase === 'running' ? job.progress || undefined : undefined
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100)
  const progressText = fraction === undefined ? undefined : messages.job.progress(format.percent(fraction))
  // The percentage is read out while the job runs; at the end the phase says it.
  const shownProgress = terminal ? undefined : progressText

  return (
    <div {...root} ref={rootRef} className={cx('ct-job-progress', className)} data-state={state}>
      <JobHeader tool={tool} job={job} checking={state === 'checking'} messages={messages} />

      {WITH_BAR.has(state) && <JobBar percent={percent} text={progressText} label={messages.job.progressLabel} />}
      {(showElapsed || shownProgress) && (
        <JobMeta elapsed={showElapsed ? messages.job.elapsed(format.clock(elapsed)) : undefined} progress={shownProgress} />
      )}

      <p className="ct-visually-hidden ct-job-progress__announcer" aria-live="polite" aria-atomic="true">
        {announced.text}
      </p>

      <WaitNotice waiting={terminal ? null : waiting} className="ct-job-progress__wait" />

      {state === 'not-found' ? (
        <p className="ct-job-progress__notice" role="alert">
          <AlertIcon />
          <span>{messages.job.notFound}</span>
        </p>
      ) : (
        (error || failure) && (
          // A read that failed is read again; a failed job is run again by the caller.
          <ErrorNotice error={error ?? failure} onRetry={error ? refetch : onRetry} />
        )
      )}

      {showArtifacts && job?.phase === 'succeeded' && job.artifacts.length > 0 && (
        <ul className="ct-job-progress__artifacts" aria-label={messages.runner.artifacts}>
          {job.artifacts.map((url) => (
            <li key={url} className="ct-job-progress__artifact">
              {renderArtifact ? renderArtifact(url) : <ArtifactViewer url={url} />}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The elapsed time and the percentage, as text, each when there is one. */
function JobMeta({ elapsed, progress }: { elapsed: string | undefined; progress: string | undefined }) {
  return (
    <p className="ct-job-progress__meta">
      {elapsed && (
        // Ticks every second; not a live region, so it is read on demand only.
        <span className="ct-job-progress__elapsed" suppressHydrationWarning>
          {elapsed}
        </span>
      )}
      {elapsed && progress && (
        <span className="ct-job-progress__separator" aria-hidden="true">
          {' · '}
        </span>
      )}
      {progress && <span className="ct-job-progress__percent">{progress}</span>}
    </p>
  )
}
