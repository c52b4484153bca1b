import { abortError } from './errors.js'

/** The longest delay setTimeout honours; a longer one fires at once. */
export const MAX_TIMER = 2 ** 31 - 1

export interface RetryOptions {
  /** Retries after a 5xx or a lost connection. Default 4. */
  retries?: number
  /** First backoff; doubles each retry. Default 500. */
  baseDelayMs?: number
  /** Longest backoff. Default 8000. */
  maxDelayMs?: number
  /** Longest single Retry-After honoured; a longer one is surfaced as a `rate-limit` error. Default 60000. */
  maxRetryAfterMs?: number
  /**
   * How long one request may wait for rate limits and a lost connection to pass, in ms, before
   * it fails (`rate-limit` or `network`). Default 120000.
   */
  maxWaitMs?: number
  /** @deprecated Use `maxWaitMs`; kept working through 0.x. */
  maxWait?: number
  /** @deprecated Use `baseDelayMs`; kept working through 0.x. */
  baseDelay?: number
  /** @deprecated Use `maxDelayMs`; kept working through 0.x. */
  maxDelay?: number
  /** @deprecated Use `maxRetryAfterMs`; kept working through 0.x. */
  maxRetryAfter?: number
}

export interface RetryPolicy {
  retries: number
  baseDelayMs: number
  maxDelayMs: number
  maxRetryAfterMs: number
  maxWait: number
}

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 4,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
  maxWait: 120_000,
}

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, retries: 0, maxWait: 0 }
  const given = options ?? {}
  return {
    retries: given.retries ?? DEFAULT_RETRY.retries,
    baseDelayMs: given.baseDelayMs ?? given.baseDelay ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: given.maxDelayMs ?? given.maxDelay ?? DEFAULT_RETRY.maxDelayMs,
    maxRetryAfterMs: given.maxRetryAfterMs ?? given.maxRetryAfter ?? DEFAULT_RETRY.maxRetryAfterMs,
    maxWait: given.maxWaitMs ?? given.maxWait ?? DEFAULT_RETRY.maxWait,
  }
}

/**
 * Resolves after `ms` (or sooner, when `wake` calls back), or rejects with an `aborted` error
 * when the signal fires first.
 */
export function sleep(
  ms: number,
  signal?: AbortSignal,
  tool?: string,
  wake?: (callback: () => void) => () => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(tool, signal.reason))
    // eslint-disable-next-line prefer-const -- finish() may read it before it is set, when wake calls back at once
    let unsubscribe: (() => void) | undefined
    const finish = () => {
      clearTimeout(timer)
      unsubscribe?.()
      signal?.removeEventListener('abort', onAbort)
    }
    const onAbort = () => {
      finish()
      reject(abortError(tool, signal?.reason))
    }
    const done = () => {
      finish()
      resolve()
    }
    const timer = setTimeout(done, Math.min(Math.max(0, ms), MAX_TIMER))
    signal?.addEventListener('abort', onAbort, { once: true })
    unsubscribe = wake?.(done)
  })
}
