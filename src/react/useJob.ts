'use client'
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import type { DeferredToolId, Job, ToolsError } from '../tools/index.js'
import { useToolsContext } from './context.js'
import { jobQueryOptions } from './jobQuery.js'

export interface UseJobOptions {
  /** Milliseconds between polls; default the provider's. */
  pollInterval?: number
  /** Set false to hold off polling. */
  enabled?: boolean
}

/**
 * A job's live status: polls until a terminal status, then stops. Observers of one job share
 * one poll; a job of another key is `not-found`. A failed job is data with phase `failed`.
 */
export function useJob<T extends DeferredToolId>(
  tool: T,
  jobId: string | null | undefined,
  options: UseJobOptions = {},
): UseQueryResult<Job<T>, ToolsError> {
  const context = useToolsContext()
  const queryClient = useQueryClient()
  return useQuery({
    ...jobQueryOptions(context, queryClient, tool, jobId ?? '', options.pollInterval),
    enabled: options.enabled !== false && Boolean(jobId),
  })
}
