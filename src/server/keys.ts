/**
 * Every key the proxy keeps in its store, in one place: two features never share a prefix by
 * accident, and what a key holds is written once.
 */
export const keys = {
  /** A user's requests in one window of the rate (`user` is `storeIdOf(id)`, as in every key naming a user). */
  rate: (user: string, window: number) => `rate:${user}:${window}`,
  /** A user's event streams opened in one window of `streamRate`. */
  streamRate: (user: string, window: number) => `stream-rate:${user}:${window}`,
  /** A user's billable calls in one window of the spend cap (windows counted from the epoch). */
  calls: (user: string, window: number) => `calls:${user}:${window}`,
  /** A job creation's Idempotency-Key already counted under the cap. */
  counted: (idempotencyKey: string) => `counted:${idempotencyKey}`,
  /** The service's file paths a job's request carried: never signed as its results. */
  written: (jobId: string) => `written:${jobId}`,
  /** A job's tool path, for its webhooks (which name only the job). */
  job: (jobId: string) => `job:${jobId}`,
  /** A webhook about a job whose creation's answer has not arrived yet. */
  early: (jobId: string) => `early:${jobId}`,
  /** The user a file was first issued to. */
  owner: (path: string) => `owner:${path}`,
  /** A webhook id already taken in. */
  webhook: (id: string) => `webhook:${id}`,
  /** A job's latest snapshot. */
  status: (job: string) => `status:${job}`,
  /** A job's first end written: later writes give way to it. */
  ended: (job: string) => `ended:${job}`,
  /** A read of the service for a job in flight, by whichever instance claimed it. */
  reading: (job: string) => `reading:${job}`,
  /** The jobs one page of a user created lately (`{ tool, jobId, at }`), for its stream opening just after. */
  recentJobs: (user: string, page: string) => `recent-jobs:${user}:${page}`,
  /** The instance watching a job. */
  lease: (job: string) => `lease:${job}`,
}

/** The channel job snapshots are published on. */
export const JOBS_CHANNEL = 'jobs'

/** The channel a user's new jobs are told on (`{ tool, jobId }`), for their open event streams to carry. */
export const userJobsChannel = (user: string) => `jobs-of:${user}`

/**
 * A user's id as the store holds it, in keys and values: its JSON spelling, which writes a lone
 * surrogate as `\uXXXX` (and a backslash as two). Distinct ids never meet on any store: written
 * as UTF-8, every lone surrogate would become U+FFFD and two users one.
 */
export const storeIdOf = (user: string): string => JSON.stringify(user).slice(1, -1)
