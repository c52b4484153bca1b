import { useQuery, useQueryClient, type QueryClient, type UseQueryResult } from '@tanstack/react-query'
import { useMemo } from 'react'
import {
  jobFailedError,
  type DeferredToolId,
  type Job,
  type Run,
  type ToolId,
  type ToolsClient,
  type ToolsError,
  type Waiting,
} from '../tools/index.js'
import type { Intent } from '../tools/internal.js'
import { useToolsContext } from './context.js'
import { asToolsError, jobQueryOptions } from './jobQuery.js'
import { useJobWaiting } from './useWaiting.js'

/** The job of the run a hook shows, as its query reads it. */
export interface RunJob {
  query: UseQueryResult<Job, ToolsError>
  job: Job | undefined
  jobId: string | undefined
  /** The error of a failed job, made once per job. */
  jobError: ToolsError | null
  jobWaiting: Waiting | null
}

/**
 * The job of the run a hook shows, read through the query cache, so every observer of the job
 * (a `useJob`, a `<JobProgress>`) shares one poll. A job is read only with the key that created
 * it, and only while someone watches it.
 */
export function useRunJob(tool: ToolId, current: Run | undefined): RunJob {
  const { client, fingerprint, clientFor, pollInterval } = useToolsContext()
  const queryClient = useQueryClient()
  const jobId = current?.jobId
  const runFingerprint = current?.fingerprint ?? fingerprint
  const runClient = clientFor(runFingerprint)
  const query = useQuery({
    ...jobQueryOptions({ client: runClient ?? client, fingerprint: runFingerprint }, queryClient, tool as DeferredToolId, jobId ?? '', pollInterval),
    enabled: Boolean(jobId && runClient),
  })
  // Without a job id the query's key names no job: no data.
  const job = query.data as Job | undefined
  // One error per failed job: a failed job is terminal, so its object no longer changes.
  const jobError = useMemo(() => (job?.phase === 'failed' ? jobFailedError(job, client.interpret) : null), [job, client])
  const jobWaiting = useJobWaiting(runFingerprint, tool, jobId, query.fetchStatus === 'paused')
  return { query, job, jobId, jobError, jobWaiting }
}

/** A run's job followed to its end through the query cache (TanStack cancelling it is an abort). */
export function followInCache(queryClient: QueryClient, tool: ToolId, pollInterval: number): (intent: Intent, jobId: string) => Promise<Job> {
  return (intent: Intent, jobId: string) =>
    queryClient
      .fetchQuery(jobQueryOptions(intent as Intent & { client: ToolsClient }, queryClient, tool as DeferredToolId, jobId, pollInterval))
      .catch((error: unknown) => {
        throw asToolsError(error, tool)
      })
}
