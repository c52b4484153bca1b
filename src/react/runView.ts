import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query'
import type { Job, Result, ToolsError, Waiting } from '../tools/index.js'
import { belongsTo } from './fingerprint.js'
import type { Run } from './journal.js'
import type { Intent } from './runFlow.js'
import type { ToolPhase } from './toolTypes.js'
import { OFFLINE } from './useWaiting.js'

/**
 * The run shown under the key now in effect, derived rather than set in render: `ends` holds
 * the key each job's end was shown under. Another person's run leaves at once, finished or not;
 * one that ended under another key left with it (it is journaled); one unfinished at a key
 * change stays, followed to its end with the key that created it.
 */
export function shownRun(current: Run | undefined, ends: Record<string, string>, fingerprint: string, user?: string) {
  return current && belongsTo(current.fingerprint, user) && (ends[current.jobId!] ?? fingerprint) === fingerprint
    ? current
    : undefined
}

/** What a hook shows of its run: the call while it is out, then its job. */
export function toolView(
  mutation: UseMutationResult<Run | Result, ToolsError, Intent>,
  jobQuery: UseQueryResult<Job, ToolsError>,
  deferred: boolean,
  current: Run | undefined,
  jobError: ToolsError | null,
  fingerprint: string,
  callWaiting: Waiting | null,
  jobWaiting: Waiting | null,
) {
  const job = jobQuery.data
  // A sync run's answer or a refusal shows under the key that sent it, not the next one.
  const own = mutation.variables?.fingerprint === fingerprint
  let phase: ToolPhase = 'idle'
  let error: ToolsError | null = null
  let result: unknown
  let waiting: Waiting | null = null
  if (mutation.isPending) {
    phase = 'submitting'
    // TanStack holds a call while offline; else the client tells what the call waits for.
    waiting = mutation.isPaused ? OFFLINE : callWaiting
  } else if (mutation.isError && own) {
    phase = 'failed'
    error = mutation.error
  } else if (!deferred) {
    if (mutation.isSuccess && own) {
      phase = 'succeeded'
      result = mutation.data
    }
  } else if (current?.jobId) {
    if (jobQuery.isError) {
      phase = 'failed'
      error = jobQuery.error
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
