import { defaultInterpretation, isTerminal, TOOLS, type Tool, type ToolId } from '../tools/index.js'
import { downloadAnswer, errorAnswer, fileNameOf, relayedHeaders } from './answers.js'
import { createEventStreams, type StreamedJob } from './events.js'
import { formFieldReader } from './formFields.js'
import { createHandles } from './handles.js'
import { createJobStatus, endedIn, type JobKey, type JobSnapshot } from './jobStatus.js'
import { AnswerTooLarge, artifactPaths, rewriteAnswer, stringsIn } from './links.js'
import { createSigner } from './signing.js'
import { guardStore, memoryStore, StoreUnavailable, type ProxyStore } from './store.js'
import { reserveCall, usageAnswer } from './usage.js'
import { failureOf, followDownload, isRedirect, neverArrived, readCapped, upstreamTimer, UpstreamFailure } from './upstream.js'
import { readWebhookJob, verifyWebhook, WEBHOOK_TOLERANCE_MS, webhookKeys, type WebhookJob, type WebhookOptions } from './webhooks.js'

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

/** A per-user request rate, every route counted: more than `requests` in `perMs` answers 429. */
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
  /** The end user behind a request (from your session), or null to refuse it with 401. Required: nothing passes without it. */
  authorize: (request: Request) => ProxyUser | null | undefined | Promise<ProxyUser | null | undefined>
  /** A spend cap per user; none when omitted. */
  limits?: ProxyLimits
  /** A request rate per user, every route; default 20 a second. */
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
  /** How often an open event stream gets a comment line to keep it alive, in ms. Default 15 s. */
  heartbeatMs?: number
  /** Event streams one user may hold open on one instance (a page holds one). Default 16. */
  streamsPerUser?: number
  /** Where the proxy reports what a partner should see (an unreachable service, a refused key, a failing store). Default `console.error`. Never given the key or the secret. */
  onError?: (message: string) => void
}

export interface ToolsProxy {
  /** Answers one request under `basePath`: a Fetch-standard handler for any runtime. */
  handle(request: Request): Promise<Response>
}

const DEFAULT_MAX_UPLOAD = 256 * 1024 * 1024
const DEFAULT_MAX_ANSWER = 4 * 1024 * 1024
const DEFAULT_TIMEOUT = 30_000
const DEFAULT_RATE: ProxyRate = { requests: 20, perMs: 1000 }
const DEFAULT_ARTIFACT_TTL = 60 * 60 * 1000
/** A JSON tool call's body, at most: options, not files. */
const MAX_JSON_REQUEST = 1024 * 1024
/** Distinct files one answer may link to. */
const MAX_LINKS = 1000
/** How long the store may take over one operation before the proxy answers 503. */
const STORE_LIMIT = 1000
/** What is remembered of a job (its request's service URLs) and of a file (its first user). */
const MEMORY_TTL = 7 * 24 * 60 * 60 * 1000
/** Signed links remembered, at most. */
const SIGNED_LINKS_KEPT = 10_000
/** How much of an upload is read before a refusal, so the browser sees the answer, not a reset. */
const DRAIN_CAP = 8 * 1024 * 1024
/** How long a job's status is kept after its last change. */
const STATUS_TTL = 60 * 60 * 1000
/** Jobs one event stream may carry. */
const MAX_STREAMED_JOBS = 50
/** With webhooks, how long a watched job may go without one before the proxy reads it itself. */
const WEBHOOK_QUIET = 60_000
/** How long a webhook about a job not yet known is kept, for its creation's answer to find. */
const EARLY_WEBHOOK_TTL = 2 * 60 * 1000

/**
 * How an upload meets a redirect. Node's fetch keeps a copy of a streamed body in any mode but
 * 'error', in case it must send it again (a 200 MB upload held whole): there, 'error'. Cloudflare
 * Workers have no 'error' mode: there, 'manual', which never resends a body either.
 */
const UPLOAD_REDIRECT: RequestRedirect = globalThis.navigator?.userAgent === 'Cloudflare-Workers' ? 'manual' : 'error'

/** The service's answer as the proxy passes it on: its status, the headers that may cross, its body's text. */
type Answer = Pick<JobSnapshot, 'status' | 'headers' | 'body'>

/** What a request under `basePath` asks for; nothing else is routed. */
type Route =
  | { kind: 'call'; tool: Tool }
  | { kind: 'poll'; tool: Tool; handle: string }
  | { kind: 'artifact'; token: string }
  | { kind: 'events' }
  | { kind: 'webhooks' }
  | { kind: 'usage' }

/**
 * A server-side proxy to the Tools API: the browser talks to it with no key (`<ToolsProvider
 * baseUrl={basePath}>`), it adds the service key. Deny by default: `authorize` decides who may
 * call which tool; jobs, files and Idempotency-Keys are bound to the user; bodies stream through;
 * every wait has a time limit and every buffer a cap.
 */
export function createToolsProxy(options: ToolsProxyOptions): ToolsProxy {
  const service = checkOptions(options)
  const basePath = options.basePath.replace(/\/+$/, '')
  const handles = createHandles(createSigner(options.secret))
  const store = guardStore(options.store ?? memoryStore(), STORE_LIMIT)
  const { limits, downloadOrigins = [], allowedOrigins = [] } = options
  const rate = options.rate ?? DEFAULT_RATE
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER
  const jsonCap = Math.min(maxUploadBytes, MAX_JSON_REQUEST)
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
  const artifactTtl = options.artifactTtlMs ?? DEFAULT_ARTIFACT_TTL
  const artifactBase = `${service}/artifacts/`
  const byPath = new Map<string, Tool>(TOOLS.map((tool) => [tool.path, tool]))
  const fetcher = options.fetch ?? globalThis.fetch
  /** Links signed lately, by user, tool, file and expiry: the same link is not signed twice. */
  const signedLinks = new Map<string, string>()

  let lastKey = typeof options.apiKey === 'string' ? options.apiKey : ''
  const apiKey = async () => (lastKey = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey)
  /** A log line with the key and the secret struck out, whatever an error message carried. */
  const report = (message: string) => {
    let line = `[tools proxy] ${message}`
    for (const secret of [lastKey, options.secret]) if (secret) line = line.split(secret).join('[redacted]')
    ;(options.onError ?? console.error)(line)
  }
  /** A request to the service with the key; never follows a redirect (no runtime's fetch may take the key elsewhere). */
  const toService = async (url: string, init: RequestInit & { duplex?: 'half' }) => {
    const headers = new Headers(init.headers)
    headers.set('Authorization', `Bearer ${await apiKey()}`)
    headers.set('Accept', 'application/json, */*')
    try {
      return await fetcher(url, { ...init, headers, redirect: init.body ? UPLOAD_REDIRECT : 'manual' })
    } catch (error) {
      // 'error' mode: the service redirected an upload.
      if (init.body && UPLOAD_REDIRECT === 'error' && /redirect/i.test(String((error as { cause?: unknown })?.cause ?? error))) {
        throw new UpstreamFailure('redirect', 'an upload was redirected')
      }
      throw error
    }
  }

  /** The service's answer, read whole up to `maxAnswerBytes`, with the headers that may cross. */
  const answerOf = async (upstream: Response): Promise<Answer> => ({
    status: upstream.status,
    headers: relayedHeaders(upstream.headers),
    body: await readCapped(upstream, maxAnswerBytes),
  })

  const webhookKeyring = options.webhooks && webhookKeys(options.webhooks)
  const readWebhook = options.webhooks?.read ?? readWebhookJob
  const byId = new Map<string, Tool>(TOOLS.map((tool) => [tool.id, tool]))
  /** Event streams open here, per user. */
  const streamsOf = new Map<string, number>()

  const jobStatus = createJobStatus(
    store,
    async ({ toolPath, jobId }) => {
      const timer = upstreamTimer(timeoutMs)
      timer.start()
      try {
        const upstream = await toService(`${service}${toolPath}/jobs/${encodeURIComponent(jobId)}`, { signal: timer.signal })
        if (isRedirect(upstream)) throw new UpstreamFailure('redirect', 'a job read was redirected')
        const answer = await answerOf(upstream)
        const ok = answer.status >= 200 && answer.status < 300
        return { ...answer, readAt: Date.now(), terminal: ok && endedIn(answer.body) }
      } catch (error) {
        throw failureOf(error, timer)
      } finally {
        timer.stop()
      }
    },
    { freshMs: 1000, keepMs: STATUS_TTL, leaseMs: 10_000, webhookQuietMs: options.webhooks ? WEBHOOK_QUIET : undefined, report },
  )
  const eventsPath = `${basePath}/events`
  const events = createEventStreams<StreamedJob & { user: ProxyUser }>(jobStatus, {
    streamMaxMs: options.streamMaxMs ?? 5 * 60 * 1000,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    maxQueuedBytes: 2 * maxAnswerBytes,
    answer: async (job, snapshot) => {
      const tool = byId.get(job.tool)!
      const answer = await jobAnswer(snapshot, job.user, tool, job.key.jobId, job.handle)
      const json = await answer.text()
      return { status: answer.status, json: answer.headers.get('content-type') === 'application/json' ? json : JSON.stringify(json) }
    },
    report,
  })

  function routeOf(pathname: string): Route | undefined {
    if (!pathname.startsWith(`${basePath}/`)) return undefined
    const rest = pathname.slice(basePath.length)
    const tool = byPath.get(rest)
    if (tool) return { kind: 'call', tool }
    if (rest === '/events') return { kind: 'events' }
    if (rest === '/webhooks') return { kind: 'webhooks' }
    if (rest === '/usage') return { kind: 'usage' }
    const poll = /^(\/.+)\/jobs\/([^/]+)$/.exec(rest)
    const polled = poll && byPath.get(poll[1]!)
    if (polled?.mode === 'deferred') return { kind: 'poll', tool: polled, handle: decodeSegment(poll![2]!) }
    const artifact = /^\/artifacts\/([^/]+)(?:\/[^/]*)?$/.exec(rest)
    return artifact ? { kind: 'artifact', token: decodeSegment(artifact[1]!) } : undefined
  }

  /** Refuses a POST that a page of another site sent: servers (no such headers) pass. */
  function crossSite(request: Request): boolean {
    if (request.headers.get('sec-fetch-site') === 'cross-site') return true
    const origin = request.headers.get('origin')
    if (origin === null) return false
    if (allowedOrigins.includes(origin)) return false
    try {
      // Host, not scheme: behind a TLS-terminating balancer the request may arrive as http.
      return new URL(origin).host !== (request.headers.get('host') ?? new URL(request.url).host)
    } catch {
      return true // `Origin: null` (a sandboxed frame, a file) or garbage
    }
  }

  /** Counts a request against the user's rate; the seconds to wait when over it. */
  async function overRate(user: string): Promise<number | undefined> {
    const now = Date.now()
    const window = Math.floor(now / rate.perMs)
    const count = await store.increment(`rate:${user}:${window}`, 1, rate.perMs)
    return count > rate.requests ? Math.max(1, Math.ceil(((window + 1) * rate.perMs - now) / 1000)) : undefined
  }

  /** A small body (a call's options, a webhook), read whole up to `cap` within `timeoutMs`: its text, or the refusal to answer. */
  async function smallBody(request: Request, cap: number): Promise<string | Response> {
    // A sender sending slowly holds nothing for long.
    const timer = upstreamTimer(timeoutMs, request.signal)
    timer.start()
    try {
      const body = request.body?.pipeThrough(new TransformStream(), { signal: timer.signal })
      return await readCapped(new Response(body, { headers: request.headers }), cap)
    } catch (error) {
      if (error instanceof UpstreamFailure && error.reason === 'too-large') return tooLarge(cap)
      if (timer.timedOut) return errorAnswer(408, 'requestTimeout', `The request’s body did not arrive within ${timeoutMs} ms.`)
      if (request.signal.aborted) return errorAnswer(499, 'clientClosed', 'The request was cancelled.')
      throw error
    } finally {
      timer.stop()
    }
  }

  /** A JSON call's body, read whole (it is options, not a file): its bytes and the strings in it, or a refusal. */
  async function jsonBody(request: Request, tool: Tool): Promise<{ bytes: Uint8Array; strings: string[] } | Response> {
    const text = await smallBody(request, jsonCap)
    if (text instanceof Response) return text
    let input: unknown
    try {
      input = JSON.parse(text)
    } catch {
      return errorAnswer(400, 'invalidInput', 'The body is not JSON.')
    }
    // A call the service would refuse never reaches it, and never holds a place under the cap.
    const checked = await tool.input['~standard'].validate(input)
    if (checked.issues) {
      const issues = checked.issues.map((issue) => ({
        path: (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)),
        message: issue.message,
      }))
      return errorAnswer(400, 'invalidInput', `The input for ${tool.id} is not valid.`, { details: { issues } })
    }
    return { bytes: new TextEncoder().encode(text), strings: stringsIn(input) }
  }

  const tooLarge = (maxBytes: number) =>
    errorAnswer(413, 'uploadTooLarge', `The upload is larger than ${maxBytes} bytes.`, { details: { maxBytes } })

  async function call(request: Request, user: ProxyUser, tool: Tool): Promise<Response> {
    if (Number(request.headers.get('content-length')) > maxUploadBytes) return refuse(request, tooLarge(maxUploadBytes))
    const contentType = request.headers.get('content-type') ?? ''
    const json = tool.body === 'json' && /^application\/json\b/i.test(contentType)
    const parsed = json ? await jsonBody(request, tool) : undefined
    if (parsed instanceof Response) return parsed
    const form = !json && /^multipart\/form-data\b/i.test(contentType) ? formFieldReader(contentType) : undefined
    const opaque = !parsed && !form && request.body !== null

    const clientKey = request.headers.get('idempotency-key')
    const idempotencyKey = clientKey ? await handles.idempotencyKey(user.user, clientKey) : undefined
    const replay = tool.mode === 'deferred' ? idempotencyKey : undefined
    const reserved = await reserveCall({ store, limits, user: user.user, now: Date.now(), replay })
    if ('refused' in reserved) return refuse(request, reserved.refused)
    const { giveBack } = reserved

    const timer = upstreamTimer(timeoutMs, request.signal)
    let exceeded = false
    let sent = false
    let billable = true
    const headers = new Headers()
    if (contentType) headers.set('Content-Type', contentType)
    if (idempotencyKey) headers.set('Idempotency-Key', idempotencyKey)
    try {
      let body: BodyInit | null = null
      if (parsed) {
        body = parsed.bytes as Uint8Array<ArrayBuffer>
        sent = true
        timer.start()
      } else if (request.body) {
        // An upload moves, or it times out; once it has all gone by, the answer has `timeoutMs`.
        timer.touch()
        let stream = request.body.pipeThrough(
          byteLimit(maxUploadBytes, {
            onChunk: timer.touch,
            onExceeded: () => {
              exceeded = true
              timer.abort(new UpstreamFailure('too-large', 'the upload is too large'))
            },
            onEnd: () => {
              sent = true
              timer.start()
            },
          }),
        )
        if (form) stream = stream.pipeThrough(form.stream)
        body = fixedLength(stream, request.headers.get('content-length'))
      } else {
        sent = true
        timer.start()
      }
      const upstream = await toService(service + tool.path, { method: 'POST', headers, body, duplex: 'half', signal: timer.signal })
      if (isRedirect(upstream)) {
        billable = false // a redirect is no answer: nothing was processed
        await upstream.body?.cancel()
        return errorAnswer(502, 'upstreamRedirect', 'The tools service answered with a redirect.')
      }
      // A refusal (400, 402, 403, 409, 429…) was not processed, so not billed.
      if (upstream.status >= 400 && upstream.status < 500) billable = false
      // What the user wrote into the request is never signed as a file of theirs; a body the
      // proxy could not read may hold anything, so then no link of the answer is signed.
      const written = parsed ? artifactPaths(parsed.strings, service) : form ? formPaths(form.fields()) : opaque ? 'unknown' : new Set<string>()
      return await relay(await answerOf(upstream), user, tool, { written, created: true })
    } catch (error) {
      if (error instanceof AnswerTooLarge || error instanceof StoreUnavailable) throw error
      if (exceeded) {
        billable = false
        return tooLarge(maxUploadBytes)
      }
      const failure = failureOf(error, timer)
      // Nothing can have been billed before the body was whole, when the service was never
      // reached, or when it answered with a redirect (an upload's, which fetch refuses to follow).
      if (!sent || neverArrived(error) || failure.reason === 'redirect') billable = false
      return upstreamFailed(`POST ${tool.path}`, failure, request)
    } finally {
      timer.stop()
      if (!billable) await giveBack()
    }
  }

  /** The service's URLs in a multipart body's text fields; every URL counts as written when they could not be read. */
  function formPaths(fields: string[] | undefined): Set<string> | 'unknown' {
    if (!fields) return 'unknown'
    const strings = fields.flatMap((field) => {
      try {
        return [field, ...stringsIn(JSON.parse(field))]
      } catch {
        return [field]
      }
    })
    return artifactPaths(strings, service)
  }

  async function poll(request: Request, user: ProxyUser, tool: Tool, handle: string): Promise<Response> {
    const jobId = await handles.openJob(user.user, tool.id, handle)
    if (!jobId) return errorAnswer(404, 'jobNotFound', 'No such job.')
    let snapshot: JobSnapshot
    try {
      snapshot = await jobStatus.read({ toolPath: tool.path, jobId })
    } catch (error) {
      if (error instanceof StoreUnavailable) throw error
      return upstreamFailed(`GET ${tool.path}/jobs`, failureOf(error, { timedOut: false, signal: request.signal }), request)
    }
    return jobAnswer(snapshot, user, tool, jobId, handle)
  }

  /** A job's status as this user reads it: their handle, their links, none of what their request carried. */
  async function jobAnswer(snapshot: Answer, user: ProxyUser, tool: Tool, jobId: string, handle: string): Promise<Response> {
    const kept = await store.get(`written:${jobId}`)
    const written = kept ? (JSON.parse(kept) as string[] | 'unknown') : []
    return relay(snapshot, user, tool, { jobId, handle, written: written === 'unknown' ? written : new Set(written) })
  }

  /** `GET {basePath}/events?job=<tool id>:<handle>&…`: one stream of the page's jobs, each bound to this user like a read. */
  async function openEvents(request: Request, user: ProxyUser): Promise<Response> {
    const wanted = new URL(request.url).searchParams.getAll('job')
    if (wanted.length === 0 || wanted.length > MAX_STREAMED_JOBS) {
      return errorAnswer(400, 'invalidInput', `Name from 1 to ${MAX_STREAMED_JOBS} jobs, as job=<tool>:<handle>.`)
    }
    const jobs: (StreamedJob & { user: ProxyUser })[] = []
    for (const each of wanted) {
      const split = each.lastIndexOf(':')
      const tool = byId.get(each.slice(0, split))
      if (!tool || tool.mode !== 'deferred') return errorAnswer(404, 'jobNotFound', 'No such job.')
      if (!user.tools.includes(tool.id)) return toolNotAllowed(tool.id)
      const handle = each.slice(split + 1)
      const jobId = await handles.openJob(user.user, tool.id, handle)
      if (!jobId) return errorAnswer(404, 'jobNotFound', 'No such job.')
      jobs.push({ key: { toolPath: tool.path, jobId }, tool: tool.id, handle, user })
    }
    const open = streamsOf.get(user.user) ?? 0
    if (open >= (options.streamsPerUser ?? 16)) {
      return errorAnswer(429, 'tooManyStreams', 'Too many event streams are open for this user.', { headers: { 'Retry-After': '5' } })
    }
    streamsOf.set(user.user, open + 1)
    // Counted while open: the page closing it, or its end, gives the place back.
    return events.open(jobs, request.headers.get('last-event-id'), request.signal, () => {
      const left = (streamsOf.get(user.user) ?? 1) - 1
      if (left > 0) streamsOf.set(user.user, left)
      else streamsOf.delete(user.user)
    })
  }

  /** `POST {basePath}/webhooks`: the service telling of a job. Verified first; then kept and published like a read. */
  async function webhook(request: Request): Promise<Response> {
    if (!webhookKeyring) return refuse(request, errorAnswer(404, 'notFound', 'Not found.'))
    const text = await smallBody(request, maxAnswerBytes)
    if (text instanceof Response) return text
    const verdict = await verifyWebhook(await Promise.all(webhookKeyring), request.headers, text, Date.now())
    if ('refused' in verdict) return errorAnswer(401, 'webhookRefused', `The webhook was refused: ${verdict.refused}.`)
    // A webhook sent again (the sender's retry) changes nothing: only the first of an id is read.
    const seen = `webhook:${verdict.id}`
    if (!(await store.claim(seen, 2 * WEBHOOK_TOLERANCE_MS))) return new Response(null, { status: 204 })
    try {
      let payload: unknown
      try {
        payload = JSON.parse(text)
      } catch {
        return errorAnswer(400, 'invalidInput', 'The webhook’s body is not JSON.')
      }
      const job = readWebhook(payload)
      // Not about a job: nothing to do.
      if (!job || typeof job.jobId !== 'string' || typeof job.status !== 'string') return new Response(null, { status: 204 })
      const toolPath = await store.get(`job:${job.jobId}`)
      const snapshot = webhookSnapshot(job)
      // A job this proxy has not seen created: its creation's answer may still be on its way (the
      // service can tell before it answers), or it is another app's on the same key. Kept briefly.
      if (!toolPath) await store.set(`early:${job.jobId}`, JSON.stringify(snapshot), EARLY_WEBHOOK_TTL)
      else await jobStatus.put({ toolPath, jobId: job.jobId }, snapshot)
      return new Response(null, { status: 204 })
    } catch (error) {
      // Not taken in: the sender's retry must be read.
      await store.release(seen).catch(() => {})
      throw error
    }
  }

  /** A job's status as a webhook tells it, kept like a read's answer. */
  const webhookSnapshot = (job: WebhookJob): JobSnapshot => ({
    status: 200,
    body: JSON.stringify(job.body ?? { jobId: job.jobId, status: job.status }),
    headers: relayedHeaders(new Headers()),
    readAt: Date.now(),
    terminal: isTerminal(defaultInterpretation.phase(job.status)),
  })

  async function artifact(request: Request, user: ProxyUser, token: string): Promise<Response> {
    const opened = await handles.openArtifact(user.user, token, Date.now())
    if (!opened?.path.startsWith('/artifacts/')) return errorAnswer(404, 'artifactNotFound', 'No such file, or its link has expired.')
    if (!user.tools.includes(opened.tool as ToolId)) return toolNotAllowed(opened.tool)
    const timer = upstreamTimer(timeoutMs, request.signal)
    timer.start()
    try {
      const first = await toService(service + opened.path, { signal: timer.signal })
      // Headers are in: the file itself may take as long as it takes to stream.
      timer.stop()
      const upstream = await followDownload(first, service + opened.path, downloadOrigins, fetcher, request.signal)
      return upstream.ok ? downloadAnswer(upstream, opened.path) : relay(await answerOf(upstream), user)
    } catch (error) {
      return upstreamFailed('GET /artifacts', failureOf(error, timer), request)
    } finally {
      timer.stop()
    }
  }

  /**
   * The service's answer for the browser: JSON with its job id replaced by this user's handle
   * and the file links the service minted by this user's signed links; anything else as plain text.
   */
  async function relay(
    upstream: Answer,
    user: ProxyUser,
    tool?: Tool,
    job: { jobId?: string; handle?: string; written?: Set<string> | 'unknown'; created?: boolean } = {},
  ): Promise<Response> {
    if (upstream.status === 401) {
      report('the service refused the API key (401): check the proxy’s apiKey')
      return errorAnswer(502, 'serviceRefusedKey', 'The tools service refused this site’s credentials.')
    }
    const { headers, status } = upstream
    let body: unknown
    try {
      body = JSON.parse(upstream.body)
    } catch {
      return new Response(upstream.body, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } })
    }
    const ok = status >= 200 && status < 300
    const created = job.created && ok && tool?.mode === 'deferred' ? (body as { jobId?: unknown })?.jobId : undefined
    const jobId = job.jobId ?? (typeof created === 'string' ? created : undefined)
    // A poll's handle is the one the browser sent: no need to sign it again.
    const handle = job.handle ?? (jobId && tool ? await handles.job(user.user, tool.id, jobId) : undefined)
    const written = job.written ?? new Set<string>()
    // A new job remembers what its request carried, for the reads of it to come.
    if (typeof created === 'string' && (written === 'unknown' || written.size > 0)) {
      await store.set(`written:${created}`, JSON.stringify(written === 'unknown' ? written : [...written]), MEMORY_TTL)
    }
    if (typeof created === 'string' && tool) {
      // The creation starts the job's clock: a watcher paces its reads (or waits for webhooks) from it.
      const key: JobKey = { toolPath: tool.path, jobId: created }
      // A webhook names only the job: which tool's it is, is remembered here.
      if (webhookKeyring) await store.set(`job:${created}`, tool.path, STATUS_TTL)
      // Kept as a read would answer it (200): with webhooks, reads are served from it until the first one.
      await jobStatus.put(key, { ...upstream, status: 200, readAt: 0, since: Date.now(), terminal: endedIn(upstream.body) })
      const early = webhookKeyring && (await store.get(`early:${created}`))
      if (early) await jobStatus.put(key, JSON.parse(early) as JobSnapshot)
    }
    // Links expire on the minute, so a poll of a job whose files did not change reuses their signatures.
    const expiresAt = Math.ceil((Date.now() + artifactTtl) / 60_000) * 60_000
    const json = await rewriteAnswer(
      body,
      {
        jobId,
        handle,
        pathOf: (value) => defaultInterpretation.artifacts(value, artifactBase)[0]?.slice(service.length),
        sign: async (paths) => {
          const signed = new Map<string, string>()
          if (!tool || written === 'unknown') return signed
          await Promise.all(
            paths.map(async (path) => {
              if (written.has(path)) return
              // The second wall: a file goes to the first user it was issued to, and no other.
              if ((await store.hold(`owner:${path}`, user.user, MEMORY_TTL)) !== user.user) return
              const key = JSON.stringify([user.user, tool.id, path, expiresAt])
              let link = signedLinks.get(key)
              if (!link) {
                const token = await handles.artifact(user.user, tool.id, path, expiresAt)
                link = `${basePath}/artifacts/${token}/${encodeURIComponent(fileNameOf(path))}`
                if (signedLinks.size >= SIGNED_LINKS_KEPT) signedLinks.clear()
                signedLinks.set(key, link)
              }
              signed.set(path, link)
            }),
          )
          return signed
        },
      },
      MAX_LINKS,
    )
    // A job's answer names the stream its updates come on: the page listens there instead of polling.
    const live: Record<string, string> = handle ? { 'X-Tools-Events': eventsPath } : {}
    return new Response(json, { status, headers: { ...headers, ...live, 'Content-Type': 'application/json' } })
  }

  const toolNotAllowed = (tool: string) =>
    errorAnswer(403, 'toolNotAllowed', `The tool ${tool} is not enabled for this user.`, { details: { tool } })

  function upstreamFailed(what: string, failure: UpstreamFailure, request: Request): Response {
    if (failure.reason === 'aborted' || request.signal.aborted) return errorAnswer(499, 'clientClosed', 'The request was cancelled.')
    if (failure.reason === 'timeout') return errorAnswer(504, 'upstreamTimeout', 'The tools service did not answer in time.')
    if (failure.reason === 'redirect') {
      report(`${what}: ${failure.message}`)
      return errorAnswer(502, 'upstreamRedirect', 'The tools service answered with a redirect.')
    }
    if (failure.reason === 'too-large') return errorAnswer(502, 'answerTooLarge', 'The tools service’s answer is too large to pass on.')
    report(`${what}: the service could not be reached (${failure.message})`)
    return errorAnswer(502, 'serviceUnreachable', 'The tools service could not be reached.')
  }

  /** Answers a refusal of a request with a body once some of the body is read, so the browser gets the answer, not a reset. */
  async function refuse(request: Request, answer: Response): Promise<Response> {
    if (request.body && !request.bodyUsed) await drain(request.body, DRAIN_CAP, timeoutMs)
    return answer
  }

  async function handle(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url)
    const route = routeOf(pathname)
    if (!route) return refuse(request, errorAnswer(404, 'notFound', 'Not found.'))
    const method = route.kind === 'call' || route.kind === 'webhooks' ? 'POST' : 'GET'
    if (request.method !== method && !(method === 'GET' && request.method === 'HEAD')) {
      return refuse(request, errorAnswer(405, 'methodNotAllowed', `Use ${method}.`, { headers: { Allow: method } }))
    }
    // The service's own call: its signature, not a session, says who sent it.
    if (route.kind === 'webhooks') return webhook(request)
    if (method === 'POST' && crossSite(request)) {
      return refuse(request, errorAnswer(403, 'crossSite', 'This request came from another site.'))
    }
    const user = await options.authorize(request)
    if (!user || typeof user.user !== 'string' || user.user === '' || !Array.isArray(user.tools)) {
      return refuse(request, errorAnswer(401, 'unauthorized', 'Sign in to use the tools.'))
    }
    const wait = await overRate(user.user)
    if (wait !== undefined) {
      return refuse(request, errorAnswer(429, 'rateLimited', 'Too many requests; try again shortly.', { headers: { 'Retry-After': String(wait) } }))
    }
    if (route.kind === 'artifact') return artifact(request, user, route.token)
    if (route.kind === 'events') return openEvents(request, user)
    if (route.kind === 'usage') return usageAnswer({ store, limits, user: user.user, now: Date.now() })
    if (!user.tools.includes(route.tool.id)) return refuse(request, toolNotAllowed(route.tool.id))
    if (route.kind === 'poll') return poll(request, user, route.tool, route.handle)
    return call(request, user, route.tool)
  }

  return {
    async handle(request) {
      try {
        return await handle(request)
      } catch (error) {
        if (error instanceof StoreUnavailable) {
          report(`the store failed: ${error.message}`)
          return errorAnswer(503, 'storeUnavailable', 'The tools are unavailable for a moment; try again shortly.', {
            headers: { 'Retry-After': '1' },
          })
        }
        if (error instanceof AnswerTooLarge || (error instanceof UpstreamFailure && error.reason === 'too-large')) {
          return errorAnswer(502, 'answerTooLarge', 'The tools service’s answer is too large to pass on.')
        }
        report(`${request.method} ${new URL(request.url).pathname}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)
        return errorAnswer(500, 'failed', 'The request could not be handled.')
      }
    },
  }
}

/** Throws on a setup that would leak or deny nothing; returns the service's base without a trailing slash. */
function checkOptions(options: ToolsProxyOptions): string {
  const fail = (what: string) => {
    throw new TypeError(`createToolsProxy: ${what}`)
  }
  if (typeof options.authorize !== 'function') fail('`authorize` is required: it says which user a request is from, or null to refuse it.')
  if (typeof options.secret !== 'string' || options.secret.length < 32) fail('`secret` must be a random string of at least 32 characters.')
  if (!options.apiKey) fail('`apiKey` is required: the service key the proxy adds.')
  if (typeof options.basePath !== 'string' || !options.basePath.startsWith('/')) fail('`basePath` must be the path the handler is mounted at, e.g. "/api/tools".')
  if (options.limits && !(options.limits.calls >= 0 && options.limits.windowMs > 0)) fail('`limits` needs `calls` (0 or more) and `windowMs` (above 0).')
  if (options.rate && !(options.rate.requests > 0 && options.rate.perMs > 0)) fail('`rate` needs `requests` and `perMs`, both above 0.')
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

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}

/**
 * Passes a body on chunk by chunk until more than `max` bytes went by; then `onExceeded` (which
 * aborts the request) and nothing more, the stream neither ending nor failing: a runtime that
 * turns a failed stream into the end of the body (workerd does) must not send a cut file as whole.
 */
function byteLimit(
  max: number,
  on: { onChunk: () => void; onExceeded: () => void; onEnd: () => void },
): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0
  return new TransformStream({
    transform(chunk, controller) {
      if (seen > max) return
      seen += chunk.byteLength
      on.onChunk()
      if (seen > max) on.onExceeded()
      else controller.enqueue(chunk)
    },
    flush() {
      if (seen <= max) on.onEnd()
    },
  })
}

/**
 * Where the runtime has it (Cloudflare Workers), a body of a declared length goes through a
 * FixedLengthStream: a body that ends short then fails the request instead of arriving as a
 * whole, shorter file.
 */
function fixedLength(stream: ReadableStream<Uint8Array>, contentLength: string | null): ReadableStream<Uint8Array> {
  const Fixed = (globalThis as { FixedLengthStream?: new (length: number) => TransformStream<Uint8Array, Uint8Array> }).FixedLengthStream
  return Fixed && contentLength && /^\d+$/.test(contentLength) ? stream.pipeThrough(new Fixed(Number(contentLength))) : stream
}

/** Reads and drops up to `cap` bytes of a body, for at most `timeoutMs`. */
async function drain(body: ReadableStream<Uint8Array>, cap: number, timeoutMs: number) {
  const reader = body.getReader()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))
  try {
    for (let seen = 0; seen <= cap; ) {
      const next = await Promise.race([reader.read(), deadline.then(() => ({ done: true as const, value: undefined }))])
      if (next.done) break
      seen += next.value.byteLength
    }
  } catch {
    // A body that fails is drained.
  } finally {
    clearTimeout(timer)
    reader.cancel().catch(() => {})
  }
}
