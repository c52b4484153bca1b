import type { Job, Result, UploadProgress, Waiting } from '../definition.js'
import type { ToolsError } from '../errors.js'
import { belongsTo } from './fingerprint.js'
import type { Run } from './journal.js'

export type RunViewPhase = 'idle' | 'submitting' | 'pending' | 'running' | 'succeeded' | 'failed'

/** Where the call (the POST) stands, and the key it was sent under. */
export interface CallState {
  status: 'idle' | 'pending' | 'error' | 'success'
  error?: ToolsError | null
  data?: unknown
  fingerprint?: string
}

/** The job as last read, or why reading it failed. */
export interface JobState {
  data?: Job
  error?: ToolsError | null
}

/** What an observer holds between answers; replaced, never changed, so a snapshot can be compared. */
export interface RunSnapshot {
  /** The run last journaled and shown (deferred tools), before the key in effect is applied. */
  current: Run | undefined
  /** The key each job's end was shown under: see shownRun. */
  ends: Record<string, string>
  uploadProgress: UploadProgress | null
  /** What the call waits for, told by the client. */
  callWaiting: Waiting | null
  /** The call as this observer made it. */
  call: CallState
  /** The job as this observer followed it. */
  job: JobState
}

/**
 * The run shown under the key now in effect, derived rather than stored: another person's run
 * leaves at once, finished or not; one that ended under another key left with it (it is
 * journaled); one unfinished at a key change stays, followed to its end with the key that made it.
 */
export function shownRun(current: Run | undefined, ends: Record<string, string>, fingerprint: string, user?: string) {
  return current && belongsTo(current.fingerprint, user) && (ends[current.jobId!] ?? fingerprint) === fingerprint
    ? current
    : undefined
}

export interface ViewInput {
  call: CallState
  job: JobState
  deferred: boolean
  /** The run shown (shownRun). */
  current: Run | undefined
  /** The error of a failed job, made once per job. */
  jobError: ToolsError | null
  fingerprint: string
  callWaiting: Waiting | null
  jobWaiting: Waiting | null
}

/** What is shown of a run: the call while it is out, then its job. */
export function runView({ call, job: read, deferred, current, jobError, fingerprint, callWaiting, jobWaiting }: ViewInput) {
  const job = read.data
  // A sync run's answer or a refusal shows under the key that sent it, not the next one.
  const own = call.fingerprint === fingerprint
  let phase: RunViewPhase = 'idle'
  let error: ToolsError | null = null
  let result: Result | Job | undefined
  let waiting: Waiting | null = null
  if (call.status === 'pending') {
    phase = 'submitting'
    waiting = callWaiting
  } else if (call.status === 'error' && own) {
    phase = 'failed'
    error = call.error ?? null
  } else if (!deferred) {
    if (call.status === 'success' && own) {
      phase = 'succeeded'
      result = call.data as Result
    }
  } else if (current?.jobId) {
    if (read.error) {
      phase = 'failed'
      error = read.error
    } else {
      phase = job?.phase ?? (current.phase === 'running' ? 'running' : 'pending')
      if (phase === 'succeeded') result = job
      // Null once the job has ended: its reads are over.
      waiting = jobWaiting
      error = jobError
    }
  }
  // Idle, there is no job (a deferred run without one, or a sync tool), but maybe a file to choose.
  return {
    phase,
    result,
    job: phase === 'submitting' ? undefined : job,
    error,
    waiting,
    needsFile: phase === 'idle' && Boolean(current?.file),
    current,
  }
}
