import type { PROXY_ERROR_CODES, ProxyErrorCode, ToolId } from '../../tools/index.js'

/** Which route answered: a tool call, a job read, the event stream, a webhook, the usage figures, a download. */
export type ProxyRouteKind = 'call' | 'job' | 'events' | 'webhooks' | 'usage' | 'download'

/**
 * What became of a request: `billed` (a call the service may bill: it answered, or its answer was
 * lost), `refused` (the proxy said no, with its `code`, and sent nothing to bill), `failed` (the
 * proxy's own 5xx or 499: the service out of reach or too slow, the store down, the page gone),
 * `answered` (anything else: the service's answer passed on, a job read, a stream opened).
 */
export type ProxyOutcome = 'billed' | 'refused' | 'failed' | 'answered'

/** One request the proxy answered. */
export interface ProxyRequestEvent {
  type: 'request'
  outcome: ProxyOutcome
  /** The request's method. */
  method: string
  kind: ProxyRouteKind | undefined
  /** The route's template, e.g. `/api/tools/pdf/create/jobs/{handle}`; undefined when no route matched. */
  route: string | undefined
  /** The path with every handle, token and file name replaced by a placeholder (the route, or `{basePath}/{unmatched}`). */
  path: string
  tool: ToolId | undefined
  /** The status the browser got. */
  status: number
  /** The proxy's own error code, when the answer is its own refusal or failure. */
  code: (typeof PROXY_ERROR_CODES)[ProxyErrorCode] | undefined
  /** The service's status for this request (a job read's may be shared with other readers). */
  upstreamStatus: number | undefined
  /** A call's: whether the service may bill it (counted under `limits`). */
  billed: boolean | undefined
  /** The user, as a keyed hash (HMAC of the id with `secret`): the same user always hashes alike, and no one can read the id back. */
  user: string | undefined
  durationMs: number
}

/** One request to the service, until its answer's headers (or its failure). */
export interface ProxyUpstreamEvent {
  type: 'upstream'
  method: string
  /** The service's path with job ids and file paths replaced, e.g. `/pdf/create/jobs/{jobId}`. */
  path: string
  /** The service's status; undefined when no answer came. */
  status: number | undefined
  /** Why no answer came. */
  failure: 'timeout' | 'redirect' | 'unreachable' | 'aborted' | 'too-large' | undefined
  durationMs: number
}

/** An event stream opened or closed on this instance; `open` counts those open now. */
export interface ProxyStreamEvent {
  type: 'stream'
  change: 'opened' | 'closed'
  open: number
}

/** What the proxy did, for `onEvent`: one per request answered, per request to the service, per event stream opened or closed. */
export type ProxyEvent = ProxyRequestEvent | ProxyUpstreamEvent | ProxyStreamEvent
