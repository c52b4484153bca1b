'use client'
import { useMemo, useState, type ForwardedRef, type ReactNode } from 'react'
import {
  isTerminal,
  jobFailedError,
  useToolsContext,
  useJob,
  type DeferredToolId,
  type Job,
  type JobPhase,
  type ToolId,
  type Waiting,
} from '../react/index.js'
import { ArtifactViewer } from './ArtifactViewer.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { useFormat } from './format.js'
import { AlertIcon } from './icons.js'
import { useElapsed } from './clock.js'
import { useMessages } from './useMessages.js'
import { WaitNotice } from './WaitNotice.js'

interface JobProgressOptions extends RootProps<HTMLDivElement> {
  /** Milliseconds between polls (with `tool` and `jobId`); default the provider's. */
  pollInterval?: number
  /** Show the job's files once it has succeeded. Default true. */
  showArtifacts?: boolean
  /** How to show one of the job's files; default an `<ArtifactViewer>`. */
  renderArtifact?: (url: string) => ReactNode
  /** When the job started, in ms since the epoch; default when this component first rendered. */
  startedAt?: number
  /** Offers "Try again" on a failed job: pass the tool hook's `retry`. */
  onRetry?: () => void
  className?: string
}

/** Follows a job by id, polling it until it ends. */
interface PolledJob {
  tool: DeferredToolId
  jobId: string
  job?: undefined
  waiting?: undefined
}

/** Shows a job read elsewhere (e.g. `useTool().job`); nothing is polled. */
interface GivenJob {
  job: Job
  /** What the poll behind `job` waits for (e.g. `useTool().waiting`). */
  waiting?: Waiting | null
  tool?: undefined
  jobId?: undefined
}

/** Either a job to follow (`tool` + `jobId`) or a job to show (`job`), with the display options. */
export type JobProgressProps = JobProgressOptions & (PolledJob | GivenJob)

/** `data-state`: before the first read, a job's phase, or why there is no job to show. */
type JobProgressState = 'checking' | JobPhase | 'not-found' | 'error'

/** States with a bar: the job is coming, under way or done. */
const WITH_BAR: ReadonlySet<JobProgressState> = new Set(['checking', 'pending', 'running', 'succeeded'])

/**
 * A deferred job's live status: the tool, the phase (with the service's own status word while
 * it runs), the elapsed time, a progress bar (`role="progressbar"`, with a value only when the
 * service reports one), and — once it has succeeded — its files. Screen readers hear each new
 * phase once, through a polite live region; a failure or a job the key cannot see is explained
 * in place.
 *
 * Classes: `ct-job-progress`, parts `__header`, `__indicator`, `__title`, `__phase`, `__status`,
 * `__bar`, `__meta`, `__elapsed`, `__separator`, `__percent`, `__wait`, `__announcer`, `__notice`, `__artifacts`,
 * `__artifact`. `data-state`: `checking` | `pending` | `running` | `succeeded` | `failed` |
 * `not-found` | `error`.
 *
 * @example
 * const { run, job, retry } = useVideoCreate()
 * {job && <JobProgress job={job} onRetry={retry} />}
 * // or, from an id kept elsewhere:
 * <JobProgress tool="video/create" jobId={jobId} />
 */
export const JobProgress = withRef(function JobProgress(props: JobProgressProps, ref: ForwardedRef<HTMLDivElement>) {
  // Another job is another run: its clock, its announcements and what it was seen doing start afresh.
  const { tool, jobId } = props.job ?? props
  return <JobProgressView key={`${tool}/${jobId}`} {...props} rootRef={ref} />
})

function JobProgressView({ rootRef, ...props }: JobProgressProps & { rootRef: ForwardedRef<HTMLDivElement> }) {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- tool, jobId and job are read from props below; the rest goes to the root
  const { pollInterval, showArtifacts = true, renderArtifact, startedAt, onRetry, className, tool: _tool, jobId: _jobId, job: _job, ...root } = props
  const messages = useMessages()
  const { client } = useToolsContext()
  const format = useFormat()
  const given = props.job
  const tool = given?.tool ?? props.tool
  // Always called (hooks cannot be conditional); with a given job it has no id, so it stays idle.
  const query = useJob(tool as DeferredToolId, given ? null : props.jobId, { pollInterval })
  const job = given ?? query.data
  const error = given ? null : query.error
  const waiting = given ? props.waiting : query.waiting

  const terminal = isTerminal(job?.phase)
  const state: JobProgressState =
    error?.kind === 'not-found' ? 'not-found' : error ? 'error' : (job?.phase ?? 'checking')

  const elapsed = useElapsed(startedAt, !terminal && !error)
  // A job first seen finished has no known duration: show none rather than a made-up "0:00".
  const [sawActive, setSawActive] = useState(false)
  if (job && !terminal && !sawActive) setSawActive(true)
  const showElapsed = startedAt !== undefined || sawActive

  // Each phase is announced once, when it is reached: polls that change nothing say nothing.
  const [announced, setAnnounced] = useState<{ phase?: JobPhase; text: string }>({ text: '' })
  if (job && job.phase !== announced.phase) setAnnounced({ phase: job.phase, text: messages.job.announce[job.phase] })

  const failure = useMemo(
    () => (job?.phase === 'failed' ? jobFailedError(job, client.interpret) : undefined),
    [job, client],
  )

  // A queued job has done nothing yet, and a running one reporting 0 has told nothing: no "0% complete".
  const fraction = job?.phase === 'succeeded' ? 1 : job?.phase === 'running' ? job.progress || undefined : undefined
  const percent = fraction === undefined ? undefined : Math.round(fraction * 100)
  const progressText = fraction === undefined ? undefined : messages.job.progress(format.percent(fraction))
  // The percentage is read out while the job runs; at the end the phase says it.
  const shownProgress = terminal ? undefined : progressText

  return (
    <div {...root} ref={rootRef} className={cx('ct-job-progress', className)} data-state={state}>
      <JobHeader tool={tool} job={job} checking={state === 'checking'} />

      {WITH_BAR.has(state) && <JobBar percent={percent} text={progressText} />}
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
          <ErrorNotice error={error ?? failure} onRetry={error ? () => void query.refetch() : onRetry} />
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

/** The tool's title and the job's phase, with the service's own status word while it runs. */
function JobHeader({ tool, job, checking }: { tool: string | undefined; job: Job | undefined; checking: boolean }) {
  const messages = useMessages()
  const detail = job?.phase === 'running' && job.status.toLowerCase() !== 'running' ? job.status : undefined
  return (
    <div className="ct-job-progress__header">
      <span className="ct-job-progress__indicator" aria-hidden="true" />
      <p className="ct-job-progress__title">
        <strong>{messages.tools[tool as ToolId]?.title ?? tool}</strong>
      </p>{' '}
      {(job || checking) && (
        <p className="ct-job-progress__phase">
          {job ? messages.phase[job.phase] : messages.job.checking}
          {detail && (
            <>
              {' '}
              <span className="ct-job-progress__status">({detail})</span>
            </>
          )}
        </p>
      )}
    </div>
  )
}

/** The progress bar: a value only when the service reported one, else indeterminate (never "0%"). */
function JobBar({ percent, text }: { percent: number | undefined; text: string | undefined }) {
  const messages = useMessages()
  return (
    <progress
      className="ct-progress ct-job-progress__bar"
      data-state={percent === undefined ? 'indeterminate' : 'determinate'}
      aria-label={messages.job.progressLabel}
      max={100}
      value={percent}
      aria-valuenow={percent}
      aria-valuetext={text}
    />
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
