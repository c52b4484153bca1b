import { PROXY_ERROR_CODES, type ProxyErrorCode } from '../tools/index.js'
import { errorAnswer } from './answers.js'

/** One of the proxy's own error codes, as its answers carry it (`PROXY_ERROR_CODES`' values). */
export type ProxyErrorCodeValue = (typeof PROXY_ERROR_CODES)[ProxyErrorCode]

export interface ProxyErrorOptions {
  /** Added to the answer's `error` object beside `code` and `message`. */
  details?: Record<string, unknown>
  headers?: Record<string, string>
  /** The line told to `onError` when the request fails with it; none for what a partner need not hear of. */
  report?: string
  cause?: unknown
}

/**
 * What went wrong on the way, carrying the proxy's answer to it: `status`, `code` (one of
 * `PROXY_ERROR_CODES`) and the `message` the page reads, made into that answer by `toResponse()`.
 * `onError` is given the one a request failed with, beside its line.
 */
export class ProxyError extends Error {
  override readonly name = 'ProxyError'
  readonly code: ProxyErrorCodeValue
  readonly details: Record<string, unknown> | undefined
  readonly headers: Record<string, string> | undefined
  /** The line for `onError`, if the partner should hear of it. */
  readonly report: string | undefined
  /** The code's name in `PROXY_ERROR_CODES`. */
  readonly #key: ProxyErrorCode

  constructor(
    readonly status: number,
    key: ProxyErrorCode,
    message: string,
    options: ProxyErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.#key = key
    this.code = PROXY_ERROR_CODES[key]
    this.details = options.details
    this.headers = options.headers
    this.report = options.report
  }

  /** The answer: `{ error: { code, message, …details } }` with `status` and `headers`, as every refusal of the proxy. */
  toResponse(): Response {
    return errorAnswer(this.status, this.#key, this.message, { details: this.details, headers: this.headers })
  }
}
