import { isCancelledError, useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import {
  getTool,
  isToolsError,
  jobFailedError,
  ToolsError,
  type DeferredToolId,
  type Job,
  type JobHandle,
  type JobPhase,
  type Result,
  type ToolId,
  type ToolInput,
  type ToolResult,
  type UploadProgress,
  type Waiting,
} from '../tools/index.js'
import { newIdempotencyKey } from '../tools/internal.js'
import { useToolsContext } from './context.js'
import { jobQueryOptions } from './jobQuery.js'
import { queryKeys } from './keys.js'
import { useJob } from './useJob.js'
import { useRunWaiting } from './useWaiting.js'

export type ToolPhase = 'idle' | 'submitting' | JobPhase

export interface RunOptions {
  signal?: AbortSignal
  /** Reuse a key to make a repeat of an earlier call safe; one is generated per run otherwise. */
  idempotencyKey?: string
}

export interface UseToolResult<T extends ToolId> {
  /** Starts a run; ignored while one is in flight, so a double click never pays twice. */
  run(input: ToolInput<T>, opts?: RunOptions): void
  /** Like `run`, resolving at the end of the whole flow (a deferred tool's terminal job). */
  runAsync(input: ToolInput<T>, opts?: RunOptions): Promise<ToolResult<T>>
  /** Repeats the last run after a failure, with the same Idempotency-Key unless the job itself failed. */
  retry(): void
  phase: ToolPhase
  /** A synchronous tool's result, or a deferred tool's succeeded job. */
  result: ToolResult<T> | undefined
  /** A deferred tool's job as last read. */
  job: Job<T> | undefined
  error: ToolsError | null
  /** Bytes sent so far of a file tool's upload. */
  uploadProgress: UploadProgress | null
  /** Why the run is held back (a rate limit, no connection, a retry after a service error), or null. */
  waiting: Waiting | null
  /** Cancels what is in flight (the upload included) and returns to `idle`. */
  reset(): void
}

interface Intent {
  input: unknown
  idempotencyKey: string
  signal: AbortSignal
}

function anySignal(signals: AbortSignal[]): AbortSignal {
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(signals)
  const controller = new AbortController()
  for (const signal of signals) signal.addEventListener('abort', () => controller.abort(signal.reason), { once: true })
  return controller.signal
}

function asToolsError(error: unknown, tool: string): ToolsError {
  if (isToolsError(error)) return error
  if (isCancelledError(error)) return new ToolsError('aborted', 'The call was cancelled.', { tool, cause: error })
  return new ToolsError('unexpected', error instanceof Error ? error.message : String(error), { tool, cause: error })
}

/**
 * One tool's whole flow: submit, then (deferred tools) follow the job to its end.
 * Phases: idle → submitting → succeeded | failed, with pending and running between for jobs.
 */
export function useTool<T extends ToolId>(tool: T): UseToolResult<T> {
  const context = useToolsContext()
  const { client, fingerprint } = context
  const queryClient = useQueryClient()
  const deferred = getTool(tool)?.mode === 'deferred'
  const [uploadProgress, setUploadProgress] = useState<UploadProgress | null>(null)
  const inflight = useRef<Promise<ToolResult<T>> | null>(null)
  const controller = useRef<AbortController | null>(null)
  const lastRun = useRef<{ input: ToolInput<T>; opts: RunOptions } | null>(null)
  const waits = useRunWaiting()

  const mutation = useMutation<JobHandle | Result, ToolsError, Intent>({
    mutationKey: queryKeys.run(fingerprint, tool),
    mutationFn: ({ input, idempotencyKey, signal }) => {
      const opts = { signal, idempotencyKey, onUploadProgress: setUploadProgress, ...waits.options }
      return deferred ? client.start(tool as DeferredToolId, input as never, opts) : client.run(tool, input as never, opts)
    },
    retry: false,
  })
  const handle = deferred ? (mutation.data as JobHandle | undefined) : undefined
  const jobQuery = useJob(tool as DeferredToolId, handle?.jobId, { enabled: Boolean(handle) })
  const job = handle ? (jobQuery.data as Job<T> | undefined) : undefined

  const { mutateAsync, reset: resetMutation } = mutation
  const runAsync = useCallback(
    (input: ToolInput<T>, opts: RunOptions = {}): Promise<ToolResult<T>> => {
      if (inflight.current) return inflight.current
      const abort = new AbortController()
      controller.current = abort
      setUploadProgress(null)
      const intent: Intent = {
        input,
        idempotencyKey: opts.idempotencyKey ?? newIdempotencyKey(),
        signal: opts.signal ? anySignal([opts.signal, abort.signal]) : abort.signal,
      }
      // Kept for retry(): the same intent, with the same key.
      lastRun.current = { input, opts: { ...opts, idempotencyKey: intent.idempotencyKey } }
      const flow = (async () => {
        const answer = await mutateAsync(intent)
        // Reset while the answer was on its way: the job may exist, but this run is over.
        if (intent.signal.aborted) throw new ToolsError('aborted', 'The run was reset.', { tool })
        if (!deferred) return answer as ToolResult<T>
        const { jobId } = answer as JobHandle
        const final = await queryClient.fetchQuery(jobQueryOptions(context, queryClient, tool as DeferredToolId, jobId))
        if (final.phase === 'failed') throw jobFailedError(final, client.interpret.errorMessage(final.data))
        return final as ToolResult<T>
      })()
        .catch((error: unknown) => {
          throw asToolsError(error, tool)
        })
        .finally(() => {
          if (inflight.current === flow) inflight.current = null
        })
      inflight.current = flow
      return flow
    },
    [mutateAsync, deferred, queryClient, context, client, tool],
  )

  const run = useCallback(
    (input: ToolInput<T>, opts?: RunOptions) => {
      // The outcome is in the hook's state; the promise is only for runAsync callers.
      runAsync(input, opts).catch(() => undefined)
    },
    [runAsync],
  )

  const reset = useCallback(() => {
    controller.current?.abort(new DOMException('The run was reset.', 'AbortError'))
    controller.current = null
    inflight.current = null
    setUploadProgress(null)
    resetMutation()
  }, [resetMutation])

  const failedJob = job?.phase === 'failed' ? job : undefined
  const jobError = useMemo(
    () => (failedJob ? jobFailedError(failedJob, client.interpret.errorMessage(failedJob.data)) : null),
    [failedJob, client],
  )

  let phase: ToolPhase
  let error: ToolsError | null = null
  let result: ToolResult<T> | undefined
  if (mutation.isIdle) phase = 'idle'
  else if (mutation.isPending) phase = 'submitting'
  else if (mutation.isError) {
    phase = 'failed'
    error = mutation.error
  } else if (!deferred) {
    phase = 'succeeded'
    result = mutation.data as ToolResult<T>
  } else if (jobQuery.isError) {
    phase = 'failed'
    error = jobQuery.error
  } else {
    phase = job?.phase ?? 'pending'
    if (phase === 'succeeded') result = job as ToolResult<T>
    error = jobError
  }

  const { refetch } = jobQuery
  const retry = useCallback(() => {
    if (inflight.current) return
    // The job exists and only reading it failed: read again rather than create another.
    if (handle && jobQuery.isError) {
      void refetch()
      return
    }
    const last = lastRun.current
    if (!last) return
    const sameIntent = error?.kind !== 'job-failed'
    run(last.input, sameIntent ? last.opts : { ...last.opts, idempotencyKey: undefined })
  }, [handle, jobQuery.isError, refetch, error, run])

  const waiting = waits.select(phase, jobQuery.waiting, mutation.isPaused)
  return { run, runAsync, retry, phase, result, job, error, uploadProgress, waiting, reset }
}
