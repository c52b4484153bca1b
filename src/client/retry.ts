import { abortError } from './errors.js'

export interface RetryOptions {
  /** Retries after the first attempt. Default 4. */
  retries?: number
  /** First backoff in ms; doubles each retry. Default 500. */
  baseDelay?: number
  /** Longest backoff in ms. Default 8000. */
  maxDelay?: number
  /** Longest Retry-After honoured in ms; a longer one is surfaced as a `rate-limit` error. Default 60000. */
  maxRetryAfter?: number
}

export type RetryPolicy = Required<RetryOptions>

export const DEFAULT_RETRY: RetryPolicy = {
  retries: 4,
  baseDelay: 500,
  maxDelay: 8000,
  maxRetryAfter: 60_000,
}

export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, retries: 0 }
  return { ...DEFAULT_RETRY, ...options }
}

/** Capped exponential backoff with jitter (half fixed, half random). */
export function backoff(attempt: number, policy: RetryPolicy, random = Math.random): number {
  const capped = Math.min(policy.maxDelay, policy.baseDelay * 2 ** attempt)
  return Math.round(capped / 2 + (random() * capped) / 2)
}

/** Retry-After as delta-seconds or an HTTP date, in ms; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (header == null || header.trim() === '') return undefined
  const text = header.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** Resolves after `ms`, or rejects with an `aborted` error when the signal fires first. */
export function sleep(ms: number, signal?: AbortSignal, tool?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(tool, signal.reason))
    const onAbort = () => {
      clearTimeout(timer)
      reject(abortError(tool, signal?.reason))
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
