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
}

/** One read of a job. `data` is the raw body; `artifacts` the result links found in it. */
export interface Job<T extends string = string> {
  tool: T
  jobId: string
  /** The status as the service sent it. */
  status: string
  phase: JobPhase
  requestId?: string
  /** Completion between 0 and 1, when the body carries a progress number. */
  progress?: number
  data: unknown
  artifacts: string[]
}

/** A synchronous tool's finished answer. */
export interface Result<T extends string = string> {
  tool: T
  data: unknown
  artifacts: string[]
  requestId?: string
}

export interface UploadProgress {
  loaded: number
  total: number
}

export interface CallOptions {
  signal?: AbortSignal
  /** Sent as `Idempotency-Key`; one is generated per call when omitted. */
  idempotencyKey?: string
  onUploadProgress?: (progress: UploadProgress) => void
  /** Milliseconds between job polls. */
  pollInterval?: number
  /** Called with every job read while waiting. */
  onJob?: (job: Job) => void
}
