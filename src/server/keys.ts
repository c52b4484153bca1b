import type { JobKey } from './jobs/jobSnapshot.js'
import { tagHash } from './tagHash.js'

/**
 * Every key and channel the proxy keeps in its store, in one place: two features never share a
 * prefix by accident, and what a key holds is written once. Each carries one Redis hash tag
 * (`{…}`, the part a cluster places it by), made of a hash of what it groups (`tagHash`): a
 * person's keys share `{u:<hash of id>}`, a job's `{j:<hash of job id>}`, a file's `{f:<hash of
 * path>}`, a webhook's `{w:<hash of id>}`; every atomic step (a batch) touches one tag. No id can
 * choose its place (`alice}x` once landed on `alice`'s) and ids spread evenly. The value itself
 * comes last, after parts that hold no `:`, so two values never share a key, even with one tag.
 */
export const keys = {
  /** A user's requests in one window of the rate (`user` is `storeIdOf(id)`, as in every key naming a user). */
  rate: (user: string, window: number) => `rate:${userTag(user)}:${window}:${user}`,
  /** A user's event streams opened in one window of `streamRate`. */
  streamRate: (user: string, window: number) => `stream-rate:${userTag(user)}:${window}:${user}`,
  /** A user's billable calls in one window of the spend cap (windows counted from the epoch). */
  calls: (user: string, window: number) => `calls:${userTag(user)}:${window}:${user}`,
  /** A job creation's Idempotency-Key already counted under the user's cap (the key names the user: it is theirs). */
  counted: (user: string, idempotencyKey: string) => `counted:${userTag(user)}:${idempotencyKey}:${user}`,
  /** The service's file paths a job's request carried: never signed as its results. */
  written: (jobId: string) => `written:${jobTag(jobId)}:${jobId}`,
  /** A job's tool path, for its webhooks (which name only the job). */
  job: (jobId: string) => `job:${jobTag(jobId)}:${jobId}`,
  /** A webhook about a job whose creation's answer has not arrived yet. */
  early: (jobId: string) => `early:${jobTag(jobId)}:${jobId}`,
  /** The user a file was first issued to. */
  owner: (path: string) => `owner:{f:${tagHash(path)}}:${path}`,
  /** A webhook id already taken in. */
  webhook: (id: string) => `webhook:{w:${tagHash(id)}}:${id}`,
  /** A job's latest snapshot. */
  status: (job: JobKey) => `status:${jobTag(job.jobId)}:${job.toolPath}:${job.jobId}`,
  /** A job's first end written: later writes give way to it. */
  ended: (job: JobKey) => `ended:${jobTag(job.jobId)}:${job.toolPath}:${job.jobId}`,
  /** A read of the service for a job in flight, by whichever instance claimed it. */
  reading: (job: JobKey) => `reading:${jobTag(job.jobId)}:${job.toolPath}:${job.jobId}`,
  /** The jobs one page of a user created lately (`{ tool, jobId, at }`), for its stream opening just after. */
  recentJobs: (user: string, page: string) => `recent-jobs:${userTag(user)}:${page}:${user}`,
  /** The instance watching a job. */
  lease: (job: JobKey) => `lease:${jobTag(job.jobId)}:${job.toolPath}:${job.jobId}`,
}

/**
 * What versions before hashed tags kept under `{f:<path>}` and `{j:<job id>}` that decides who gets
 * a file: a file's first user, and what a job's request carried. Read where the new key has none,
 * while such a record may live (7 days after the upgrade); nothing writes them any more.
 */
export const legacyKeys = {
  owner: (path: string) => `owner:{f:${path}}`,
  written: (jobId: string) => `written:{j:${jobId}}`,
}

/** A user's hash tag. */
const userTag = (user: string) => `{u:${tagHash(user)}}`
/** A job's hash tag: by its id alone, so a webhook (which names no tool) finds the same place. */
const jobTag = (jobId: string) => `{j:${tagHash(jobId)}}`

/** The channel a job's snapshots are published on, with its keys' tag (a cluster's sharded pub/sub keeps it on their shard). */
export const jobChannelOf = (job: JobKey) => `jobs:${jobTag(job.jobId)}:${job.toolPath}:${job.jobId}`

/** The channel a user's new jobs are told on (`{ tool, jobId }`), for their open event streams to carry. */
export const userJobsChannel = (user: string) => `jobs-of:${userTag(user)}:${user}`

/**
 * A user's id as the store holds it, in keys and values: its JSON spelling, which writes a lone
 * surrogate as `\uXXXX` (and a backslash as two). Distinct ids never meet on any store: written
 * as UTF-8, every lone surrogate would become U+FFFD and two users one.
 */
export const storeIdOf = (user: string): string => JSON.stringify(user).slice(1, -1)
