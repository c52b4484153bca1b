import { CancelledError, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import {
  getTool,
  isTerminal,
  jobFailedError,
  ToolsError,
  type DeferredToolId,
  type Job,
  type Result,
  type ToolId,
  type ToolInput,
  type ToolResult,
  type ToolsClient,
  type UploadProgress,
  type Waiting,
} from '../tools/index.js'
import { abortError, newIdempotencyKey, toToolsError } from '../tools/internal.js'
import { useToolsContext } from './context.js'
import { belongsTo } from './fingerprint.js'
import type { Run } from './journal.js'
import { jobQueryOptions } from './jobQuery.js'
import { queryKey } from './keys.js'
import { OFFLINE, queryPresence, useJobWaiting } from './useWaiting.js'

export type ToolPhase = 'idle' | 'submitting' | 'pending' | 'running' | 'succeeded' | 'failed'

export interface RunOptions {
  signal?: AbortSignal
  /** Reuse a key to make a repeat of an earlier call safe; one is generated per run otherwise. */
  idempotencyKey?: string
}

export interface UseToolOptions {
  /** Tells two widgets of one tool apart: each resumes only the runs it started. */
  scope?: string
}

interface UseToolBase<T extends ToolId> {
  /** Starts a run; ignored while one is in flight, so a double click never pays twice. */
  run(input: ToolInput<T>, opts?: RunOptions): void
  /** Like `run`, resolving at the end of the whole flow (a deferred tool's terminal job). */
  runAsync(input: ToolInput<T>, opts?: RunOptions): Promise<ToolResult<T>>
  /** Repeats the last run after a failure, with the same Idempotency-Key unless the job itself failed. */
  retry(): void
  /** Bytes sent so far of a file tool's upload. */
  uploadProgress: UploadProgress | null
  /** Why the run is held back (a rate limit, no connection, a retry after a service error), or null. */
  waiting: Waiting | null
  /**
   * A file tool's run was cut off mid-upload (a reload): choose the file again and `run` it with
   * the same options; it is re-sent with the same Idempotency-Key, so it is not paid twice.
   */
  needsFile: boolean
  /** The journaled run shown (deferred tools). */
  current: Run | undefined
  /**
   * Cancels what is in flight and returns to `idle`. An upload stopped before its body was
   * whole is forgotten (nothing was billed); later, the outcome is unknown: the run stays
   * journaled and running the same input again reuses its Idempotency-Key.
   */
  reset(): void
}

/** What `useTool` returns; `phase` tells which fields are set. */
export type UseToolResult<T extends ToolId> = UseToolBase<T> &
  (
    | { phase: 'idle' | 'submitting'; result: undefined; job: undefined; error: null }
    | { phase: 'pending' | 'running'; result: undefined; job: Job<T> | undefined; error: null }
    | { phase: 'succeeded'; result: ToolResult<T>; job: Job<T> | undefined; error: null }
    | { phase: 'failed'; result: undefined; job: Job<T> | undefined; error: ToolsError }
  )

interface Intent {
  input: unknown
  idempotencyKey?: string
  signal: AbortSignal
  client: ToolsClient
  fingerprint: string
}

/** Kinds after which the service may have taken the call: the run's outcome is unknown. */
const UNKNOWN_OUTCOME = new Set(['network', 'server', 'aborted'])

/** The client's errors as they are; TanStack's cancellation is an abort. */
const asToolsError = (error: unknown, tool: string) =>
  error instanceof CancelledError ? abortError(tool, error) : toToolsError(error, tool)

/** The JSON part of an input and its file, described (the bytes are never journaled). */
function splitInput(input: unknown): Pick<Run, 'input' | 'file'> {
  const { file, ...rest } = (input ?? {}) as Record<string, unknown>
  const json = JSON.parse(JSON.stringify(file instanceof Blob ? rest : (input ?? {}))) as Record<string, unknown>
  if (!(file instanceof Blob)) return { input: json }
  return { input: json, file: { name: (file as File).name ?? '', type: file.type, size: file.size } }
}

/**
 * One tool's whole flow: submit, then (deferred tools) follow the job to its end.
 * Phases: idle → submitting → succeeded | failed, with pending and running between for jobs.
 * A deferred run is journaled before its POST leaves, and resumed on the next mount.
 */
export function useTool<T extends ToolId>(tool: T, options: UseToolOptions = {}): UseToolResult<T> {
  const { scope } = options
  const context = useToolsContext()
  const { client, fingerprint, user, journal, clientFor, pollInterval } = context
  const queryClient = useQueryClient()
  const deferred = getTool(tool)?.mode === 'deferred'
  const [uploadProgress, setUploadProgress] = useState<UploadProgress | null>(null)
  const [current, setCurrent] = useState<Run>()
  const inflight = useRef<Promise<ToolResult<T>> | null>(null)
  const controller = useRef<AbortController | null>(null)
  const lastRun = useRef<{ input: ToolInput<T>; opts: RunOptions } | null>(null)
  // What the run's own call waits for, told by the client (`onWait`).
  const [callWaiting, onWait] = useState<Waiting | null>(null)
  // Whether anyone still watches a deferred run (set by the resume effect below).
  const mounted = useRef(false)
  // The run as last journaled, for writes made outside render (reset, answers after unmount).
  const journaled = useRef<Run | undefined>(undefined)

  const save = useCallback(
    (run: Run, change: Partial<Run>) => {
      const next = { ...run, ...change, updatedAt: Date.now() }
      if (!journaled.current || journaled.current.id === run.id) journaled.current = next
      return journal.put(next).then(() => next)
    },
    [journal],
  )

  const mutation = useMutation<Run | Result, ToolsError, Intent>({
    mutationKey: queryKey(fingerprint, 'run', tool),
    mutationFn: async ({ input, idempotencyKey, signal, client, fingerprint }) => {
      let partial = false
      const onUploadProgress = (progress: UploadProgress) => {
        partial = progress.loaded < progress.total
        setUploadProgress(progress)
      }
      const sending = { onUploadProgress, onWait, presence: queryPresence }
      if (!deferred) return client.run(tool, input as never, { signal, idempotencyKey, ...sending })

      // The journal first: if the page dies while the POST is out, the intent survives it.
      const parts = splitInput(input)
      // An unfinished run of the same input and file is the same intent, sent again with its key.
      const described = JSON.stringify([parts.input, parts.file])
      const now = Date.now()
      const earlier = (await journal.list(fingerprint)).find(
        (run) =>
          run.tool === tool &&
          run.scope === scope &&
          !isTerminal(run.phase) &&
          (idempotencyKey === undefined || run.idempotencyKey === idempotencyKey) &&
          JSON.stringify([run.input, run.file]) === described,
      )
      let run = await save(earlier ?? {
        id: newIdempotencyKey(),
        tool,
        fingerprint,
        scope,
        idempotencyKey: idempotencyKey ?? newIdempotencyKey(),
        ...parts,
        phase: 'submitting',
        createdAt: now,
        updatedAt: now,
      }, { seen: false })
      journaled.current = run
      setCurrent(run)
      try {
        const handle = await client.start(tool as DeferredToolId, input as never, {
          signal,
          idempotencyKey: run.idempotencyKey,
          ...sending,
        })
        // An answer already known (a replay of an unfinished job) keeps its journaled phase.
        run = await save(run, { jobId: handle.jobId, phase: run.jobId ? run.phase : 'pending' })
        setCurrent(run)
        return run
      } catch (cause) {
        const error = asToolsError(cause, tool)
        // A refusal, or an upload stopped before its body was whole: nothing was billed.
        if (!UNKNOWN_OUTCOME.has(error.kind) || (error.kind === 'aborted' && partial)) await journal.drop(run)
        else if (error.kind === 'aborted') await save(run, { seen: true })
        throw error
      }
    },
    retry: false,
  })

  const runFingerprint = current?.fingerprint ?? fingerprint
  const runClient = clientFor(runFingerprint)
  const jobQuery = useQuery({
    ...jobQueryOptions(
      { client: runClient ?? client, fingerprint: runFingerprint, pollInterval },
      queryClient,
      tool as DeferredToolId,
      current?.jobId ?? '',
    ),
    // A job is read only with the key that created it, and only while someone watches it.
    enabled: Boolean(current?.jobId && runClient),
  })
  const job = current?.jobId ? (jobQuery.data as Job<T> | undefined) : undefined

  const { mutateAsync, reset: resetMutation } = mutation
  const runAsync = useCallback(
    (input: ToolInput<T>, opts: RunOptions = {}): Promise<ToolResult<T>> => {
      if (inflight.current) return inflight.current
      const abort = new AbortController()
      controller.current = abort
      setUploadProgress(null)
      const intent: Intent = {
        input,
        idempotencyKey: opts.idempotencyKey,
        signal: opts.signal ? AbortSignal.any([opts.signal, abort.signal]) : abort.signal,
        client,
        fingerprint,
      }
      const flow = (async () => {
        const answer = await mutateAsync(intent)
        // Reset (or aborted) while the answer was on its way: the job may exist, but this run is over.
        if (intent.signal.aborted) throw abortError(tool, intent.signal.reason)
        if (!deferred) return answer as ToolResult<T>
        const { jobId } = answer as Run
        // Nobody watches any more: the journal keeps the job for the next mount, unpolled.
        if (!mounted.current) throw new ToolsError('aborted', 'Unmounted; the run is journaled.', { tool, jobId })
        const final = await queryClient.fetchQuery(
          jobQueryOptions({ client, fingerprint, pollInterval }, queryClient, tool as DeferredToolId, jobId!),
        )
        if (final.phase === 'failed') throw jobFailedError(final, client.interpret)
        return final as ToolResult<T>
      })()
        .catch((error: unknown) => {
          throw asToolsError(error, tool)
        })
        .finally(() => {
          if (inflight.current === flow) inflight.current = null
        })
      inflight.current = flow
      lastRun.current = { input, opts }
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

  // Another person's run is no longer this hook's to show or keep (see the key change below).
  useEffect(() => {
    if (journaled.current && !belongsTo(journaled.current.fingerprint, user)) journaled.current = undefined
  }, [user])

  // While mounted, resume the newest run of this tool (and scope) nobody has seen the end of.
  useEffect(() => {
    if (!deferred) return
    mounted.current = true
    let live = true
    void journal.list(fingerprint).then((runs) => {
      const found = runs.find((run) => run.tool === tool && run.scope === scope && !run.seen)
      // Never in place of a run already shown: this key's, or another key's still unfinished.
      const shown = journaled.current
      if (!live || !found || inflight.current || (shown && (shown.fingerprint === fingerprint || !isTerminal(shown.phase)))) return
      journaled.current = found
      setCurrent(found)
      // A JSON run whose answer was never seen is sent again with its own key (the journal finds
      // it by that key): a replay, not a new bill.
      if (!found.jobId && !found.file) run(found.input as ToolInput<T>, { idempotencyKey: found.idempotencyKey })
    })
    return () => {
      live = false
      mounted.current = false
    }
  }, [deferred, journal, fingerprint, tool, scope, run])

  const reset = useCallback(() => {
    controller.current?.abort(new DOMException('The run was reset.', 'AbortError'))
    controller.current = null
    inflight.current = null
    // A job set aside stays journaled (and listed by useRuns) but is not resumed.
    const run = journaled.current
    if (run?.jobId) void save(run, { seen: true })
    journaled.current = undefined
    setCurrent(undefined)
    setUploadProgress(null)
    resetMutation()
  }, [resetMutation, save])

  // On a key change, a finished run of the old key leaves the view (it is journaled); an
  // unfinished one stays, followed to its end with the key that created it, never dropped.
  // Another person's run leaves at once, finished or not: it is theirs to see and poll.
  const [viewed, setViewed] = useState({ fingerprint, user })
  if (viewed.fingerprint !== fingerprint) {
    setViewed({ fingerprint, user })
    if (viewed.user !== user || isTerminal(job?.phase ?? current?.phase)) setCurrent(undefined)
  }
  // A sync run's answer or a refusal shows under the key that sent it, not the next one.
  const ownMutation = mutation.variables?.fingerprint === fingerprint

  const failedJob = job?.phase === 'failed' ? job : undefined
  const jobError = useMemo(() => (failedJob ? jobFailedError(failedJob, client.interpret) : null), [failedJob, client])

  let phase: ToolPhase
  let error: ToolsError | null = null
  let result: ToolResult<T> | undefined
  if (mutation.isPending) phase = 'submitting'
  else if (mutation.isError && ownMutation) {
    phase = 'failed'
    error = mutation.error
  } else if (!deferred) {
    phase = mutation.isSuccess && ownMutation ? 'succeeded' : 'idle'
    if (phase === 'succeeded') result = mutation.data as ToolResult<T>
  } else if (!current?.jobId) phase = 'idle'
  else if (jobQuery.isError) {
    phase = 'failed'
    error = jobQuery.error
  } else {
    phase = job?.phase ?? (current.phase === 'running' ? 'running' : 'pending')
    if (phase === 'succeeded') result = job as ToolResult<T>
    error = jobError
  }
  const needsFile = phase === 'idle' && Boolean(current?.file && !current.jobId)

  // Every answer is journaled; a finished run shown here counts as seen.
  const journalPhase = jobQuery.error?.kind === 'not-found' ? 'failed' : job?.phase
  useEffect(() => {
    const run = journaled.current
    if (!journalPhase || !run?.jobId || run.jobId !== current?.jobId) return
    const seen = isTerminal(journalPhase)
    if (journalPhase !== run.phase || (seen && !run.seen)) void save(run, { phase: journalPhase, seen })
  }, [current?.jobId, journalPhase, save])

  const { refetch } = jobQuery
  const retry = useCallback(() => {
    if (inflight.current) return
    // The job exists and only reading it failed: read again rather than create another.
    if (current?.jobId && jobQuery.isError) {
      void refetch()
      return
    }
    const last = lastRun.current
    if (!last) return
    // The same intent keeps its key (the journal finds it); a failed job is tried afresh.
    run(last.input, error?.kind === 'job-failed' ? { ...last.opts, idempotencyKey: undefined } : last.opts)
  }, [current?.jobId, jobQuery.isError, refetch, error, run])

  const jobWaiting = useJobWaiting(runFingerprint, tool, current?.jobId, jobQuery.fetchStatus === 'paused')
  // The call's wait while submitting (TanStack holds the call offline), then the job's while it runs.
  const waiting =
    phase === 'submitting'
      ? mutation.isPaused
        ? OFFLINE
        : callWaiting
      : phase === 'pending' || phase === 'running'
        ? jobWaiting
        : null
  return {
    run,
    runAsync,
    retry,
    phase,
    result,
    job: phase === 'idle' || phase === 'submitting' ? undefined : job,
    error,
    uploadProgress,
    waiting,
    needsFile,
    current,
    reset,
  } as UseToolResult<T>
}
