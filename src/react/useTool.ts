import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useInsertionEffect, useState, useSyncExternalStore } from 'react'
import { getTool, type Run, type ToolId, type ToolInput, type ToolResult, type ToolsClient } from '../tools/index.js'
import { RunObserver, runView, shownRun, type Intent, type RunObserverOptions } from '../tools/internal.js'
import { useToolsContext } from './context.js'
import { queryKey } from './keys.js'
import type { RunOptions, UseToolOptions, UseToolResult } from './toolTypes.js'
import { followInCache, useRunJob } from './useRunJob.js'
import { queryPresence } from './useWaiting.js'

export type { RunOptions, ToolPhase, UseToolOptions, UseToolResult } from './toolTypes.js'

/**
 * One tool's whole flow: submit, then (deferred tools) follow the job to its end. The run lives in
 * a framework-free `RunObserver` (journal, replay, resume, offline hold, reset, retry); this hook
 * bridges it with `useSyncExternalStore`, sends its call as a mutation and reads its job through
 * the query cache, shared with every other observer of the job.
 */
export function useTool<T extends ToolId>(tool: T, { tag, scope }: UseToolOptions = {}): UseToolResult<T> {
  const { client, fingerprint, user, journal, pollInterval } = useToolsContext()
  const queryClient = useQueryClient()
  const deferred = getTool(tool)?.mode === 'deferred'
  const options: RunObserverOptions = { tool, deferred, journal: deferred && journal, tag: tag ?? scope, presence: queryPresence }
  const [observer] = useState(() => new RunObserver(options))
  useInsertionEffect(() => observer.setOptions(options))
  const state = useSyncExternalStore(observer.subscribe, observer.getSnapshot, observer.getSnapshot)
  const current = shownRun(state.current, state.ends, fingerprint, user) as Run | undefined
  const { query, job, jobId, jobError, jobWaiting } = useRunJob(tool, current)
  // The call goes out as a TanStack mutation, so the cache hears it settle (useUsage reads again).
  const { mutateAsync } = useMutation({ mutationKey: queryKey(fingerprint, 'run', tool), mutationFn: (intent: Intent) => observer.submit(intent) })

  const runAsync = useCallback(
    (input: ToolInput<T>, opts: RunOptions = {}) =>
      observer.runAsync<ToolResult<T>>(input, opts, { client: client as ToolsClient as never, fingerprint }, {
        send: mutateAsync,
        follow: followInCache(queryClient, tool, pollInterval),
      }),
    [observer, mutateAsync, queryClient, client, fingerprint, pollInterval, tool],
  )
  // The outcome is in the hook's state; the promise is only for runAsync callers.
  const run = useCallback((input: ToolInput<T>, opts?: RunOptions) => void runAsync(input, opts).catch(() => undefined), [runAsync])
  useEffect(() => observer.mount(fingerprint, user, run), [observer, fingerprint, user, run, tool, journal, options.tag])
  const reset = useCallback(() => observer.reset(), [observer])

  // Every answer is journaled; where a finished one was shown is noted for shownRun.
  const journalPhase = query.error?.kind === 'not-found' ? 'failed' : job?.phase
  useEffect(() => observer.journalPhase(jobId, journalPhase, fingerprint), [observer, journal, jobId, journalPhase, fingerprint])

  const view = runView({
    call: state.call,
    job: { data: job, error: query.isError ? query.error : null },
    deferred,
    current,
    jobError,
    fingerprint,
    callWaiting: state.callWaiting,
    jobWaiting,
  })
  const { refetch, isError: readFailed } = query
  const retry = useCallback(
    () => observer.retry({ jobId, readFailed, failed: job?.phase === 'failed', reread: () => void refetch() }, run),
    [observer, jobId, readFailed, job?.phase, refetch, run],
  )
  return { run, runAsync, retry, uploadProgress: state.uploadProgress, reset, ...view } as UseToolResult<T>
}
