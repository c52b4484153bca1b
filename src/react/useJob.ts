'use client'
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import type { DeferredToolId, Job, ToolData, ToolsError, Waiting } from '../tools/index.js'
import { useToolsContext } from './context.js'
import { jobQueryOptions } from './jobQuery.js'
import { useJobWaiting } from './useWaiting.js'

export interface UseJobOptions {
  /** Milliseconds between polls; default the provider's. */
  pollIntervalMs?: number
  /** @deprecated Use `pollIntervalMs`; kept working through 0.x. */
  pollInterval?: number
  /** Set false to hold off polling. */
  enabled?: boolean
}

/** `useJob`'s result: TanStack's query result (a succeeded job's `data` typed as declared in `Register`), and what the poll is waiting for. */
export type UseJobResult<T extends DeferredToolId> = UseQueryResult<Job<T, ToolData<T>>, ToolsError> & {
  /** Why the poll is held back (a rate limit, no connection, a retry after a service error), or null. */
  waiting: Waiting | null
}

/**
 * A job's live status: polls until a terminal status, then stops. Observers of one job share
 * one poll; a job of another key is `not-found`. A failed job is data with phase `failed`.
 */
export function useJob<T extends DeferredToolId>(
  tool: T,
  jobId: string | null | undefined,
  options: UseJobOptions = {},
): UseJobResult<T> {
  const context = useToolsContext()
  const queryClient = useQueryClient()
  const query = useQuery({
    ...jobQueryOptions(context, queryClient, tool, jobId ?? '', options.pollIntervalMs ?? options.pollInterval),
    enabled: options.enabled !== false && Boolean(jobId),
  })
  const waiting = useJobWaiting(context.fingerprint, tool, jobId, query.fetchStatus === 'paused')
  // A wrapper, not a copy: TanStack re-renders only for the fields a component reads.
  return new Proxy(query, {
    get: (target, key) => (key === 'waiting' ? waiting : Reflect.get(target, key)),
  }) as UseJobResult<T>
}
