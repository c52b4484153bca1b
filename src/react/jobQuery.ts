import { CancelledError, queryOptions, type QueryClient } from '@tanstack/react-query'
import { isTerminal, isToolsError, type DeferredToolId, type Job, type ToolsError } from '../tools/index.js'
import { abortError, toToolsError } from '../tools/internal.js'
import type { ToolsContextValue } from './context.js'
import { queryKey } from './keys.js'
import { queryPresence, reportJobWaiting } from './useWaiting.js'

/**
 * One query per job and key. Its function is the whole poll, pushing each read into the cache,
 * so every observer shares one poll; TanStack cancels it when the last observer unmounts.
 */
export function jobQueryOptions<T extends DeferredToolId>(
  context: Pick<ToolsContextValue, 'client' | 'fingerprint'> & { pollInterval?: number },
  queryClient: QueryClient,
  tool: T,
  jobId: string,
  pollInterval = context.pollInterval,
) {
  const key = queryKey(context.fingerprint, 'job', tool, jobId)
  return queryOptions<Job<T>, ToolsError, Job<T>, typeof key>({
    queryKey: key,
    queryFn: async ({ signal }) => {
      let last: Job<T> | undefined
      try {
        return await context.client.wait(tool, jobId, {
          signal,
          pollInterval,
          presence: queryPresence,
          onWait: reportJobWaiting(queryClient, context.fingerprint, tool, jobId),
          onJob: (job) => {
            last = job as Job<T>
            queryClient.setQueryData(key, last)
          },
        })
      } catch (error) {
        // A failed job is an answer, not a failed query: observers see its phase and body.
        if (isToolsError(error) && error.kind === 'job-failed' && last) return last
        throw error
      }
    },
    // Nothing more will change: a terminal job, or one the key cannot see.
    staleTime: ({ state }) => (isTerminal(state.data?.phase) || state.error?.kind === 'not-found' ? Infinity : 0),
    // Retries are the client's alone (its backoff, its wait budget): a query retry on top would
    // multiply them. A failed poll starts again on focus, on reconnect, or with a new observer.
    retry: false,
  })
}

/** The client's errors as they are; TanStack's cancellation of a run's call or poll is an abort. */
export const asToolsError = (error: unknown, tool: string) =>
  error instanceof CancelledError ? abortError(tool, error) : toToolsError(error, tool)
