import type { Job, ToolData, ToolId, ToolInput, ToolResult, ToolsError, UploadProgress, Waiting } from '../tools/index.js'
import type { Run } from './journal.js'

export type ToolPhase = 'idle' | 'submitting' | 'pending' | 'running' | 'succeeded' | 'failed'

export interface RunOptions {
  signal?: AbortSignal
  /** Reuse a key to make a repeat of an earlier call safe; one is generated per run otherwise. */
  idempotencyKey?: string
}

export interface UseToolOptions {
  /** Tells two widgets of one tool apart: each resumes only the runs it started. */
  tag?: string
  /** @deprecated Use `tag` (`scope` also names a key's permission); kept working through 0.x. */
  scope?: string
}

interface UseToolBase<T extends ToolId> {
  /** Starts a run; ignored while one is in flight, so a double click never pays twice. */
  run(input: ToolInput<T>, opts?: RunOptions): void
  /** Like `run`, resolving at the end of the whole flow (a deferred tool's terminal job). */
  runAsync(input: ToolInput<T>, opts?: RunOptions): Promise<ToolResult<T>>
  /** Repeats the last run after a failure, with the same Idempotency-Key unless the job itself failed. */
  retry(): void
  /** Bytes sent so far of a file tool's upload. */
  uploadProgress: UploadProgress | null
  /** Why the run is held back (a rate limit, no connection, a retry after a service error), or null. */
  waiting: Waiting | null
  /**
   * A file tool's run was cut off mid-upload (a reload): choose the file again and `run` it with
   * the same options; it is re-sent with the same Idempotency-Key, so it is not paid twice.
   */
  needsFile: boolean
  /** The journaled run shown (deferred tools). */
  current: Run | undefined
  /**
   * Cancels what is in flight and returns to `idle`. An upload stopped before its body was
   * whole is forgotten (nothing was billed); later, the outcome is unknown: the run stays
   * journaled and running the same input again reuses its Idempotency-Key.
   */
  reset(): void
}

/** What `useTool` returns; `phase` tells which fields are set. */
export type UseToolResult<T extends ToolId> = UseToolBase<T> &
  (
    | { phase: 'idle' | 'submitting'; result: undefined; job: undefined; error: null }
    | { phase: 'pending' | 'running'; result: undefined; job: Job<T, ToolData<T>> | undefined; error: null }
    | { phase: 'succeeded'; result: ToolResult<T>; job: Job<T, ToolData<T>> | undefined; error: null }
    | { phase: 'failed'; result: undefined; job: Job<T, ToolData<T>> | undefined; error: ToolsError }
  )
