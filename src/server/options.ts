import { getTool, type ToolId } from '../tools/index.js'
import type { ProxyEvent } from './telemetry/proxyEvent.js'
import type { ProxyStore } from './stores/store.js'
import type { WebhookOptions } from './webhooks/webhooks.js'

/** Who is asking, as the partner's `authorize` says: the end user's id and the tools they may run. */
export interface ProxyUser {
  /** A stable id of the end user: jobs, files, Idempotency-Keys and the spend cap are bound to it. */
  user: string
  /** The tools this user may call, read and download from; any other answers 403. */
  tools: readonly ToolId[]
}

/** A per-user spend cap: at most `calls` billable tool calls in each window of `windowMs`, windows counted from the Unix epoch. */
export interface ProxyLimits {
  calls: number
  windowMs: number
}

/** A per-user request rate over tool calls, downloads and usage reads (not job reads or event streams): more than `requests` in `perMs` answers 429. */
export interface ProxyRate {
  requests: number
  perMs: number
}

export interface ToolsProxyOptions {
  /** The service's base address, ending in `/v1`. */
  baseUrl: string
  /** The service key: a string, or a function called before each request (for rotation). Never leaves the server. */
  apiKey: string | (() => string | Promise<string>)
  /** The path the handler is mounted at, e.g. `/api/tools`; the browser's `baseUrl`. */
  basePath: string
  /** Signs job handles, artifact links and Idempotency-Keys; at least 32 characters. Never leaves the server. */
  secret: string
  /** The end user behind a request (from your session), or null to refuse it with 401. Required: nothing passes without it. Any other answer is a setup error: 500 `proxy_authorize_invalid`, told to `onError`. */
  authorize: (request: Request) => ProxyUser | null | undefined | Promise<ProxyUser | null | undefined>
  /** A spend cap per user; none when omitted. */
  limits?: ProxyLimits
  /** A request rate per user over calls, downloads and usage reads; default 20 a second. */
  rate?: ProxyRate
  /** Where counters and shared state live: `memoryStore()` (default, one process) or `redisStore(client)` (several instances). */
  store?: ProxyStore
  /** Largest request body passed on, in bytes; larger ones get 413. Default 256 MiB. */
  maxUploadBytes?: number
  /** Largest JSON answer of the service passed on, in bytes; a larger one is 502 `answer_too_large`. Default 4 MiB. */
  maxAnswerBytes?: number
  /** How long the service may take to answer once a request is sent, and an upload may stay silent, in ms. Default 30 s. */
  timeoutMs?: number
  /** Origins a download may be redirected to (a CDN), hop by hop, without the key. Default none. */
  downloadOrigins?: readonly string[]
  /** Origins besides the request's own whose pages may POST (another site of yours). Default none. */
  allowedOrigins?: readonly string[]
  /** How long an artifact link handed to the browser works, in ms, rounded up to the minute. Default one hour (a new job read gives fresh links). */
  artifactTtlMs?: number
  /**
   * The tools whose answers carry files the service made for the call: only their answers (to
   * the caller's own call or job) get signed file links. Default: the catalogue's file-making
   * tools. Change it when your service answers otherwise.
   */
  fileTools?: readonly ToolId[]
  /** A fetch to reach the service with, instead of the global one. */
  fetch?: typeof fetch
  /**
   * Receive the service's webhooks at `{basePath}/webhooks` (Standard Webhooks, verified with
   * `secret`): job updates reach the pages' event streams at once, and no instance reads the
   * service for a job while its webhooks keep coming.
   */
  webhooks?: WebhookOptions
  /** How long one event stream (`{basePath}/events`) stays open before the page resumes it, in ms. Default 5 minutes; lower it where a platform cuts requests sooner (serverless). */
  streamMaxMs?: number
  /** How long an open event stream may go with nothing sent before it gets a comment line to keep it alive, in ms. Default 15 s. */
  heartbeatMs?: number
  /** Event streams one user may hold open on one instance (a page holds one). Default 16. */
  streamsPerUser?: number
  /**
   * Event streams one user may open per `perMs`, on every instance together; more answer 429 with
   * `Retry-After`, at the cost of the count alone. Default 30 per 10 s: a page opens one for its
   * life, and again after `streamMaxMs` or a cut, with backoff.
   */
  streamRate?: ProxyRate
  /** Where the proxy reports what a partner should see (an unreachable service, a refused key, a failing store). Default `console.error`. Never given the key or the secret. One that throws is told to `console.error`; no answer changes. */
  onError?: (message: string) => void
  /**
   * Told what the proxy did, for a logger: each request answered (route, tool, outcome, the
   * proxy's code, the service's status, billed or not), each request to the service, each event
   * stream opened and closed. Never given the key, a secret, a handle, a file token, the user's
   * input, or a user id (only its keyed hash). One that throws is reported to `onError`, and the
   * request goes on. OpenTelemetry, when an SDK is registered, gets the same.
   */
  onEvent?: (event: ProxyEvent) => void
}

export interface ToolsProxy {
  /** Answers one request under `basePath`: a Fetch-standard handler for any runtime. */
  handle(request: Request): Promise<Response>
  /**
   * Ends what the proxy keeps running between requests: its store's subscriptions, their connection
   * and retries (the store's `close`). Call it on shutdown, after your server stopped taking
   * requests, then close your Redis client: the process exits. Workers need none of it.
   */
  close(): Promise<void>
}

export /** Throws on a setup that would leak or deny nothing; returns the service's base without a trailing slash. */
function checkOptions(options: ToolsProxyOptions): string {
  const fail = (what: string) => {
    throw new TypeError(`createToolsProxy: ${what}`)
  }
  if (typeof options.authorize !== 'function') fail('`authorize` is required: it says which user a request is from, or null to refuse it.')
  if (typeof options.secret !== 'string' || options.secret.length < 32) fail('`secret` must be a random string of at least 32 characters.')
  if (!options.apiKey) fail('`apiKey` is required: the service key the proxy adds.')
  if (typeof options.basePath !== 'string' || !options.basePath.startsWith('/')) fail('`basePath` must be the path the handler is mounted at, e.g. "/api/tools".')
  if (options.limits && !(options.limits.calls >= 0 && options.limits.windowMs > 0)) fail('`limits` needs `calls` (0 or more) and `windowMs` (above 0).')
  for (const name of ['rate', 'streamRate'] as const) {
    const rate = options[name]
    if (rate && !(rate.requests > 0 && rate.perMs > 0)) fail(`\`${name}\` needs \`requests\` and \`perMs\`, both above 0.`)
  }
  const webhooks = options.webhooks
  if (webhooks && !((webhooks.maxBytes ?? 1) > 0 && (webhooks.maxReading ?? 1) >= 1 && (webhooks.bodyTimeoutMs ?? 1) > 0)) {
    fail('`webhooks.maxBytes`, `webhooks.maxReading` and `webhooks.bodyTimeoutMs` must be above 0.')
  }
  for (const tool of options.fileTools ?? []) if (!getTool(tool)) fail(`\`fileTools\` names "${tool}", which is not a tool.`)
  for (const origin of [...(options.downloadOrigins ?? []), ...(options.allowedOrigins ?? [])]) {
    let parsed: URL | undefined
    try {
      parsed = new URL(origin)
    } catch {
      parsed = undefined
    }
    if (parsed?.origin !== origin) fail(`"${origin}" is not an origin: write it as scheme://host[:port], with no path.`)
  }
  let base: URL
  try {
    base = new URL(options.baseUrl)
  } catch {
    return fail('`baseUrl` must be the service’s absolute base address.') as never
  }
  if (!/^https?:$/.test(base.protocol)) fail('`baseUrl` must be an http(s) address.')
  return base.href.replace(/\/+$/, '')
}
