import type { CallOptions, Job } from './definition.js'
import { followJob, type JobReader } from './follow.js'
import { createJobReader } from './jobReader.js'
import type { JobsHost } from './jobsHost.js'
import type { PageStream } from './pageStream.js'
import type { Send } from './send.js'
import type { ClientSettings } from './settings.js'

/** A job to follow: its tool and id; `fresh` when the POST's answer just gave its state. */
export interface FollowedJob {
  id: string
  jobId: string
  fresh: boolean
  requestId?: string
  /** Its POST was answered as a replay: the job it follows carries `replayed: true`. */
  replayed?: true
}

/** What the jobs' code works with: the client's settings, stream and sender, and what it gets of the first load (JobsHost). */
export interface JobParts {
  settings: ClientSettings
  stream: PageStream
  send: Send
  kit: JobsHost
}

/**
 * The client's jobs: one read, and following one to its end. A chunk of its own, fetched when a
 * deferred call starts or a job is first read, so a page of synchronous tools never carries it.
 */
export function createJobs(
  parts: JobParts,
  jobTool: JobReader['jobTool'],
) {
  const reader = createJobReader(parts, jobTool)
  return {
    read: reader.read,
    follow: (job: FollowedJob, opts: CallOptions): Promise<Job> => followJob({ ...parts, reader }, job, opts),
  }
}

export type Jobs = ReturnType<typeof createJobs>
