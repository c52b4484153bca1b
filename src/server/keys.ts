import type { JobKey } from './jobSnapshot.js'

/**
 * Every key and channel the proxy keeps in its store, in one place: two features never share a
 * prefix by accident, and what a key holds is written once. Each carries one Redis hash tag
 * (`{…}`), the part a cluster places it by: a person's keys share `{u:<id>}`, a job's `{j:<id>}`,
 * a file's `{f:<path>}`, a webhook's `{w:<id>}`; every atomic step (a batch) touches one tag.
 */
export const keys = {
  /** A user's requests in one window of the rate (`user` is `storeIdOf(id)`, as in every key naming a user). */
  rate: (user: string, window: number) => `rate:${userTag(user)}:${window}`,
  /** A user's event streams opened in one window of `streamRate`. */
  streamRate: (user: string, window: number) => `stream-rate:${userTag(user)}:${window}`,
  /** A user's billable calls in one window of the spend cap (windows counted from the epoch). */
  calls: (user: string, window: number) => `calls:${userTag(user)}:${window}`,
  /** A job creation's Idempotency-Key already counted under the user's cap (the key names the user: it is theirs). */
  counted: (user: string, idempotencyKey: string) => `counted:${userTag(user)}:${idempotencyKey}`,
  /** The service's file paths a job's request carried: never signed as its results. */
  written: (jobId: string) => `written:${jobTag(jobId)}`,
  /** A job's tool path, for its webhooks (which name only the job). */
  job: (jobId: string) => `job:${jobTag(jobId)}`,
  /** A webhook about a job whose creation's answer has not arrived yet. */
  early: (jobId: string) => `early:${jobTag(jobId)}`,
  /** The user a file was first issued to. */
  owner: (path: string) => `owner:{f:${path}}`,
  /** A webhook id already taken in. */
  webhook: (id: string) => `webhook:{w:${id}}`,
  /** A job's latest snapshot. */
  status: (job: JobKey) => `status:${jobTag(job.jobId)}:${job.toolPath}`,
  /** A job's first end written: later writes give way to it. */
  ended: (job: JobKey) => `ended:${jobTag(job.jobId)}:${job.toolPath}`,
  /** A read of the service for a job in flight, by whichever instance claimed it. */
  reading: (job: JobKey) => `reading:${jobTag(job.jobId)}:${job.toolPath}`,
  /** The jobs one page of a user created lately (`{ tool, jobId, at }`), for its stream opening just after. */
  recentJobs: (user: string, page: string) => `recent-jobs:${userTag(user)}:${page}`,
  /** The instance watching a job. */
  lease: (job: JobKey) => `lease:${jobTag(job.jobId)}:${job.toolPath}`,
}

/** A user's hash tag. */
const userTag = (user: string) => `{u:${user}}`
/** A job's hash tag: by its id alone, so a webhook (which names no tool) finds the same place. */
const jobTag = (jobId: string) => `{j:${jobId}}`

/** The channel a job's snapshots are published on, with its keys' tag (a cluster's sharded pub/sub keeps it on their shard). */
export const jobChannelOf = (job: JobKey) => `jobs:${jobTag(job.jobId)}:${job.toolPath}`

/** The channel a user's new jobs are told on (`{ tool, jobId }`), for their open event streams to carry. */
export const userJobsChannel = (user: string) => `jobs-of:${userTag(user)}`

/**
 * A user's id as the store holds it, in keys and values: its JSON spelling, which writes a lone
 * surrogate as `\uXXXX` (and a backslash as two). Distinct ids never meet on any store: written
 * as UTF-8, every lone surrogate would become U+FFFD and two users one.
 */
export const storeIdOf = (user: string): string => JSON.stringify(user).slice(1, -1)
