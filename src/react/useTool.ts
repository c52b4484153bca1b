import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import {
  getTool,
  isTerminal,
  jobFailedError,
  type DeferredToolId,
  type Job,
  type Result,
  type ToolId,
  type ToolInput,
  type ToolResult,
  type ToolsError,
  type UploadProgress,
  type Waiting,
} from '../tools/index.js'
import { useToolsContext } from './context.js'
import type { Run } from './journal.js'
import { jobQueryOptions } from './jobQuery.js'
import { queryKey } from './keys.js'
import { follow, submit, type Intent } from './runFlow.js'
import { saveRun } from './runJournal.js'
import { shownRun, toolView } from './runView.js'
import type { RunOptions, UseToolOptions, UseToolResult } from './toolTypes.js'
import { useResume } from './useResume.js'
import { useJobWaiting } from './useWaiting.js'

export type { RunOptions, ToolPhase, UseToolOptions, UseToolResult } from './toolTypes.js'

/**
 * One tool's whole flow: submit, then (deferred tools) follow the job to its end.
 * Phases: idle → submitting → succeeded | failed, with pending and running between for jobs.
 * A deferred run is journaled before its POST leaves, and resumed on the next mount.
 * The parts: runFlow (submit, follow), runJournal, useResume and runView; this hook holds the
 * state they share.
 */
export function useTool<T extends ToolId>(tool: T, { scope }: UseToolOptions = {}): UseToolResult<T> {
  const { client, fingerprint, user, journal, clientFor, pollInterval } = useToolsContext()
  const queryClient = useQueryClient()
  const deferred = getTool(tool)?.mode === 'deferred'
  const [uploadProgress, setUploadProgress] = useState<UploadProgress | null>(null)
  const [kept, setCurrent] = useState<Run>()
  // What the run's own call waits for, told by the client (`onWait`).
  const [callWaiting, onWait] = useState<Waiting | null>(null)
  // The key each job's end was shown under: see shownRun.
  const [ends, setEnds] = useState<Record<string, string>>({})
  const inflight = useRef<Promise<ToolResult<T>> | null>(null)
  const controller = useRef<AbortController | null>(null)
  const lastRun = useRef<[ToolInput<T>, RunOptions]>(null)
  // Whether anyone still watches a deferred run (set by useResume).
  const mounted = useRef(false)
  // The run as last journaled, for writes made outside render (reset, answers after unmount).
  const journaled = useRef<Run | undefined>(undefined)

  const mutation = useMutation<Run | Result, ToolsError, Intent>({
    mutationKey: queryKey(fingerprint, 'run', tool),
    mutationFn: (intent) =>
      submit(intent, setUploadProgress, onWait, tool, deferred && journal, journaled, scope, setCurrent),
    retry: false,
  })

  const current = shownRun(kept, ends, fingerprint, user)
  const jobId = current?.jobId
  const runFingerprint = current?.fingerprint ?? fingerprint
  const runClient = clientFor(runFingerprint)
  const jobQuery = useQuery({
    ...jobQueryOptions(
      { client: runClient ?? client, fingerprint: runFingerprint },
      queryClient,
      tool as DeferredToolId,
      jobId ?? '',
      pollInterval,
    ),
    // A job is read only with the key that created it, and only while someone watches it.
    enabled: Boolean(jobId && runClient),
  })
  // Without a job id the query's key names no job: no data.
  const job = jobQuery.data as Job<T> | undefined

  const { mutateAsync, reset: resetMutation } = mutation
  const runAsync = useCallback(
    (input: ToolInput<T>, opts: RunOptions = {}): Promise<ToolResult<T>> => {
      if (inflight.current) return inflight.current
      const abort = new AbortController()
      controller.current = abort
      setUploadProgress(null)
      const intent: Intent = {
        ...opts,
        input,
        signal: opts.signal ? AbortSignal.any([opts.signal, abort.signal]) : abort.signal,
        client,
        fingerprint,
      }
      const flow = follow<ToolResult<T>>(mutateAsync(intent), intent, tool, deferred && mounted, queryClient, pollInterval).finally(
        () => {
          if (inflight.current === flow) inflight.current = null
        },
      )
      inflight.current = flow
      lastRun.current = [input, opts]
      return flow
    },
    [mutateAsync, deferred, queryClient, client, fingerprint, pollInterval, tool],
  )

  const run = useCallback(
    (input: ToolInput<T>, opts?: RunOptions) => {
      // The outcome is in the hook's state; the promise is only for runAsync callers.
      runAsync(input, opts).catch(() => undefined)
    },
    [runAsync],
  )

  useResume(inflight, mounted, fingerprint, user, run, tool, deferred && journal, journaled, scope, setCurrent)

  const reset = useCallback(() => {
    controller.current?.abort(new DOMException('The run was reset.', 'AbortError'))
    inflight.current = null
    // A job set aside stays journaled (and listed by useRuns) but is not resumed.
    const run = journaled.current
    if (run?.jobId) void saveRun(journal, journaled, run, { seen: true })
    setCurrent((journaled.current = undefined))
    setUploadProgress(null)
    resetMutation()
  }, [resetMutation, journal])

  // Every answer is journaled; where a finished one was shown is noted for shownRun.
  const journalPhase = jobQuery.error?.kind === 'not-found' ? 'failed' : job?.phase
  useEffect(() => {
    const run = journaled.current
    // A phase is known only for a shown job: one that is not the journaled run is not this hook's.
    if (!journalPhase || !run || run.jobId !== jobId) return
    const seen = isTerminal(journalPhase)
    if (journalPhase !== run.phase || (seen && !run.seen))
      void saveRun(journal, journaled, run, { phase: journalPhase, seen }).then(() => seen && setEnds({ [jobId!]: fingerprint }))
  }, [journal, jobId, journalPhase, fingerprint])

  // One error per failed job: a failed job is terminal, so its object no longer changes.
  const jobError = useMemo(() => (job?.phase === 'failed' ? jobFailedError(job, client.interpret) : null), [job, client])
  const jobWaiting = useJobWaiting(runFingerprint, tool, jobId, jobQuery.fetchStatus === 'paused')
  const view = toolView(mutation, jobQuery, deferred, current, jobError, fingerprint, callWaiting, jobWaiting)

  const { refetch } = jobQuery
  const retry = useCallback(() => {
    if (inflight.current) return
    // The job exists and only reading it failed: read again rather than create another.
    if (jobId && jobQuery.isError) {
      void refetch()
      return
    }
    if (!lastRun.current) return
    const [input, opts] = lastRun.current
    // The same intent keeps its key (the journal finds it); a failed job is tried afresh.
    run(input, job?.phase === 'failed' ? { ...opts, idempotencyKey: undefined } : opts)
  }, [jobId, jobQuery.isError, refetch, job?.phase, run])

  return { run, runAsync, retry, uploadProgress, reset, ...view } as UseToolResult<T>
}
