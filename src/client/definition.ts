import type { StandardSchemaV1 } from './standard-schema.js'

/**
 * What the client needs to know of a tool. The catalogue (`src/tools`) supplies one per
 * row; the client itself knows no tool by name.
 */
export interface ToolDefinition {
  /** The path without its leading slash, e.g. `valuation/rent`. */
  readonly id: string
  /** The path relative to the base URL, e.g. `/valuation/rent`. */
  readonly path: string
  readonly mode: 'sync' | 'deferred'
  readonly body: 'json' | 'multipart'
  /** The scope a key needs, or `null` when any key will do. */
  readonly scope: string | null
  /** Name of the multipart part that carries the file (file tools only). */
  readonly fileField?: string
  /** Takes a listing (`objectId` or `collectionId`) that must belong to the caller. */
  readonly listing?: boolean
  /** Validates the input before anything is sent. */
  readonly input: StandardSchemaV1
}

/** The four phases every job status is normalised to. */
export type JobPhase = 'pending' | 'running' | 'succeeded' | 'failed'

/** What a deferred tool's POST answers (202). */
export interface JobHandle<T extends string = string> {
  tool: T
  jobId: string
  status: string
  requestId: string
  /** The answer said it replays an earlier POST with this Idempotency-Key (`Idempotent-Replayed: true`): not billed again. */
  replayed?: true
}

interface JobFields<T extends string> {
  tool: T
  jobId: string
  /** The status as the service sent it. */
  status: string
  requestId?: string
  /**
   * Completion from 0 to 1 (a body's percentage is read as its fraction). Absent until the
   * service reports a figure, and while the job is queued: a bar with no value until then.
   */
  progress?: number
  artifacts: string[]
  /** The POST that made this job was answered as a replay of an earlier one: not billed again. */
  replayed?: true
}

/**
 * One read of a job. `data` is the raw body; `artifacts` the result links found in it. `D` is
 * the body of a succeeded job (a result type declared in `Register`); before then it is `unknown`.
 */
export type Job<T extends string = string, D = unknown> = JobFields<T> &
  ({ phase: 'succeeded'; data: D } | { phase: Exclude<JobPhase, 'succeeded'>; data: unknown })

/** A synchronous tool's finished answer; `D` is its body's type (declared in `Register`, else `unknown`). */
export interface Result<T extends string = string, D = unknown> {
  tool: T
  data: D
  artifacts: string[]
  requestId?: string
  /** The answer said it replays an earlier call with this Idempotency-Key: not billed again. */
  replayed?: true
}

/**
 * A person's standing under the proxy's spend cap (`GET {basePath}/usage`): calls counted in the
 * current window, the cap, and when the window ends (an ISO time); `limit` and `resetAt` are null
 * when the proxy sets no cap.
 */
export interface Usage {
  used: number
  limit: number | null
  resetAt: string | null
}

export interface UploadProgress {
  loaded: number
  total: number
  /**
   * How many times the upload was cut off (the connection lost) and started again from its first
   * byte, with the same Idempotency-Key: absent until it is. Show it, so going back to 0 has a reason.
   */
  restarts?: number
}

/** Why a request is held back, to show it: a rate limit (until when), no connection, or a retry after a service error. */
export interface Waiting {
  reason: 'rate-limit' | 'offline' | 'retrying'
  /** When the request should go again, in ms since the epoch, where known. */
  until?: number
  /** Which retry this is (1 for the first), for `retrying`. */
  attempt?: number
}

/** Whether anyone is looking and whether the device is online: what paces polling. */
export interface Presence {
  /** True while the page is hidden: polls slow to one per 30 s. */
  hidden(): boolean
  /** True while the device is offline: a lost request waits for the connection instead of failing. */
  offline(): boolean
  /** Calls `wake` when the page is shown again or the connection returns; returns the unsubscribe. */
  subscribe(wake: () => void): () => void
}

export interface CallOptions {
  signal?: AbortSignal
  /** Sent as `Idempotency-Key`; one is generated per call when omitted. */
  idempotencyKey?: string
  onUploadProgress?: (progress: UploadProgress) => void
  /** Milliseconds between job polls while the job is young; polls slow as it ages. */
  pollIntervalMs?: number
  /** @deprecated Use `pollIntervalMs`; kept working through 0.x. */
  pollInterval?: number
  /** How long to poll a job before failing with `timeout` (the job goes on: wait for it again). */
  pollTimeoutMs?: number
  /** @deprecated Use `pollTimeoutMs`; kept working through 0.x. */
  pollTimeout?: number
  /** Called with every job read while waiting. */
  onJob?: (job: Job) => void
  /** Called when the call starts or stops waiting (rate limit, offline, retry), with `null` when it goes on. */
  onWait?: (waiting: Waiting | null) => void
  /** Default: the page's visibility and connection, where there is a page. */
  presence?: Presence
}
