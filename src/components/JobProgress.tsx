'use client'
import { useMemo, type ForwardedRef, type ReactNode } from 'react'
import { isTerminal, jobFailedError, useToolsContext, useJob, type DeferredToolId, type Job, type Waiting } from '../react/index.js'
import { ArtifactViewer } from './ArtifactViewer.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { useElapsed } from './clock.js'
import { ErrorNotice } from './ErrorNotice.js'
import { useFormat } from './format.js'
import { JobBar, JobHeader } from './jobParts.js'
import type { JobWords } from './JobProgressView.js'
import { lazyPart } from './lazyPart.js'
import { useCoreMessages } from './useMessages.js'
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

type ViewProps = Omit<JobProgressProps, keyof JobWords | 'jobId' | 'pollInterval' | 'ref'> & JobWords

/** The progress while its code comes: the tool, the phase as read, a bar; offline, the wait for the connection. */
function JobStand({ className, rootRef, messages, tool, job, failed }: ViewProps & { failed: boolean }) {
  return (
    <div ref={rootRef} className={cx('ct-job-progress', className)} data-state="loading" aria-busy={!failed || undefined}>
      <JobHeader tool={tool} job={job} checking={!job} messages={messages} />
      <JobBar percent={undefined} text={undefined} label={messages.job.progressLabel} />
      <WaitNotice waiting={failed ? { reason: 'offline' } : null} className="ct-job-progress__wait" />
    </div>
  )
}

const view = lazyPart<ViewProps, HTMLDivElement>(() => import('./JobProgressView.js').then((chunk) => chunk.JobProgressView), JobStand)

/**
 * A deferred job's live status: the tool, the phase (with the service's own status word while
 * it runs), the elapsed time, a progress bar (`role="progressbar"`, with a value only when the
 * service reports one), and — once it has succeeded — its files. Screen readers hear each new
 * phase once, through a polite live region; a failure or a job the key cannot see is explained
 * in place.
 *
 * Its code is a chunk of its own, fetched when a job is first shown (a `<ToolRunner>` fetches it on
 * idle): until it comes, the tool and the phase show over a bar with no value (`data-state`
 * `loading`), and the job is already being read. Should that fetch fail offline, it says it waits
 * for the connection.
 *
 * Classes: `ct-job-progress`, parts `__header`, `__indicator`, `__title`, `__phase`, `__status`,
 * `__bar`, `__meta`, `__elapsed`, `__separator`, `__percent`, `__wait`, `__announcer`, `__notice`, `__artifacts`,
 * `__artifact`. `data-state`: `checking` | `pending` | `running` | `succeeded` | `failed` |
 * `not-found` | `error`, or `loading` while its code comes.
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
  return <JobFollow key={`${tool}/${jobId}`} {...props} rootRef={ref} />
})

/** The job, read here (polled, or as given), handed to the progress's code with the page's strings. */
function JobFollow({ pollInterval, jobId, ...props }: JobProgressProps & { rootRef: ForwardedRef<HTMLDivElement> }) {
  const { client } = useToolsContext()
  const given = props.job
  const tool = given?.tool ?? props.tool
  // Always called (hooks cannot be conditional); with a given job it has no id, so it stays idle.
  const query = useJob(tool as DeferredToolId, given ? null : jobId, { pollInterval })
  const job = given ?? query.data
  const failure = useMemo(
    () => (job?.phase === 'failed' ? jobFailedError(job, client.interpret) : undefined),
    [job, client],
  )
  const error = given ? null : query.error
  const terminal = isTerminal(job?.phase)
  const elapsed = useElapsed(props.startedAt, !terminal && !error)
  return (
    <view.Part
      {...props}
      {...{ tool, job, error, failure, terminal, elapsed, ErrorNotice, WaitNotice, ArtifactViewer, JobHeader, JobBar }}
      messages={useCoreMessages()}
      format={useFormat()}
      waiting={given ? props.waiting : query.waiting}
      refetch={() => void query.refetch()}
    />
  )
}

/** Fetches the progress's code ahead of a job's first showing. */
export const loadJobProgress = view.load
