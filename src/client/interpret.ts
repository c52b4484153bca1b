import type { JobPhase, ToolDefinition } from './definition.js'
import { ToolsError } from './errors.js'
import { asRecord, pickString } from './record.js'

/**
 * How the client reads what the spec leaves unshown. Each default is one assumption, listed
 * in the README; a partner replaces any of them with `createToolsClient({ interpret })`.
 */
export interface Interpretation {
  /** Normalises a job status. */
  phase(status: string): JobPhase
  /** The result links in a body: every URL under `artifactBase`, wherever it sits. */
  artifacts(body: unknown, artifactBase: string): string[]
  /** Completion between 0 and 1, when the body carries one. */
  progress(body: unknown): number | undefined
  /** A human message from an error body, when it carries one. */
  errorMessage(body: unknown): string | undefined
  /** A machine-readable error code from an error body, when it carries one. */
  errorCode(body: unknown): string | undefined
  /** Tells a listing access error from the other refusals of a listing tool. */
  isListingAccessError(response: { status: number; body: unknown; tool: ToolDefinition }): boolean
}

const SUCCEEDED = new Set(['completed', 'done', 'success'])
// The spec names only `failed`; these usual words are terminal too, or a job would poll forever.
const FAILED = new Set(['failed', 'failure', 'error', 'errored', 'cancelled', 'canceled', 'expired', 'rejected', 'aborted', 'timeout', 'timed_out'])

function phase(status: string): JobPhase {
  const normal = status.toLowerCase()
  if (SUCCEEDED.has(normal)) return 'succeeded'
  if (FAILED.has(normal)) return 'failed'
  if (normal === 'pending') return 'pending'
  return 'running'
}

function artifacts(body: unknown, artifactBase: string): string[] {
  const found = new Set<string>()
  const visit = (value: unknown, depth: number): void => {
    if (depth > 20) return
    if (typeof value === 'string') {
      const url = resolveLink(value, artifactBase)
      if (url) found.add(url)
    } else if (value && typeof value === 'object') {
      // Arrays too: their values are their items.
      for (const item of Object.values(value)) visit(item, depth + 1)
    }
  }
  visit(body, 0)
  return [...found]
}

/** An absolute or root-relative link under `artifactBase`, as an absolute URL. */
function resolveLink(text: string, artifactBase: string): string | undefined {
  if (!/^(https?:\/\/|\/)/i.test(text)) return undefined
  try {
    const url = new URL(text, artifactBase).href
    return url.startsWith(artifactBase) && url.length > artifactBase.length ? url : undefined
  } catch {
    return undefined
  }
}

function progress(body: unknown): number | undefined {
  const value = asRecord(body)?.progress
  if (typeof value !== 'number' || !(value >= 0) || value === Infinity) return undefined
  // 0..1 or a percentage: both are common.
  return Math.min(1, value > 1 ? value / 100 : value)
}

function errorMessage(body: unknown): string | undefined {
  const error = asRecord(body)?.error
  return pickString(body, ['message', 'detail', 'title']) ?? (typeof error === 'string' && error ? error : undefined)
}

function errorCode(body: unknown): string | undefined {
  return pickString(body, ['code'])
}

const NAMES_LISTING = /listing|object_?id|collection/i
const DENIES_ACCESS = /access|belong|owner|forbidden|denied|not allowed|permission/i

/** A 403 or 404 on a listing tool that speaks of the listing and of access, and not of a scope. */
function isListingAccessError({ status, body, tool }: { status: number; body: unknown; tool: ToolDefinition }) {
  if (!tool.listing || (status !== 403 && status !== 404)) return false
  let text: string
  try {
    text = typeof body === 'string' ? body : JSON.stringify(body ?? '')
  } catch {
    // Nested deeper than JSON.stringify can go: its own message is all that can be read.
    text = errorMessage(body) ?? ''
  }
  return NAMES_LISTING.test(text) && DENIES_ACCESS.test(text) && !/scope/i.test(text)
}

export const defaultInterpretation: Interpretation = {
  phase,
  artifacts,
  progress,
  errorMessage,
  errorCode,
  isListingAccessError,
}

/** The error a failed job settles as (kind `job-failed`), explained as `interpret` reads its body. */
export function jobFailedError(
  job: { tool: string; jobId?: string; requestId?: string; data: unknown },
  interpret: Pick<Interpretation, 'errorMessage'> = defaultInterpretation,
): ToolsError {
  const detail = interpret.errorMessage(job.data)
  return new ToolsError('job-failed', detail ? `The job failed: ${detail}` : 'The job failed.', {
    tool: job.tool,
    jobId: job.jobId,
    requestId: job.requestId,
    body: job.data,
  })
}
