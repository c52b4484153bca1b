import { defaultInterpretation, PROXY_ERROR_CODES, TOOLS, type Tool, type ToolId } from '../tools/index.js'
import { downloadAnswer, errorAnswer, fileNameOf, relayedHeaders } from './answers.js'
import { createHandles } from './handles.js'
import { createSigner } from './signing.js'
import { memoryStore, type ProxyStore } from './store.js'

/** Who is asking, as the partner's `authorize` says: the end user's id and the tools they may run. */
export interface ProxyUser {
  /** A stable id of the end user: jobs, files, Idempotency-Keys and the spend cap are bound to it. */
  user: string
  /** The tools this user may call; any other answers 403. */
  tools: readonly ToolId[]
}

/** A per-user spend cap: at most `calls` billable tool calls in `windowMs` from the first. */
export interface ProxyLimits {
  calls: number
  windowMs: number
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
  /** Where spend counters live: `memoryStore()` (default, one process) or `redisStore(client)` (several instances). */
  store?: ProxyStore
  /** Largest request body passed on, in bytes; larger ones get 413. Default 256 MiB. */
  maxUploadBytes?: number
  /** How long an artifact link handed to the browser works, in ms. Default one hour (a new job read gives fresh links). */
  artifactTtlMs?: number
  /** A fetch to reach the service with, instead of the global one. */
  fetch?: typeof fetch
  /** Where the proxy reports what a partner should see (an unreachable service, a refused key). Default `console.error`. Never given the key or the secret. */
  onError?: (message: string) => void
}

export interface ToolsProxy {
  /** Answers one request under `basePath`: a Fetch-standard handler for any runtime. */
  handle(request: Request): Promise<Response>
}

const DEFAULT_MAX_UPLOAD = 256 * 1024 * 1024
const DEFAULT_ARTIFACT_TTL = 60 * 60 * 1000

/** What a request under `basePath` asks for; nothing else is routed. */
type Route =
  | { kind: 'call'; tool: Tool }
  | { kind: 'poll'; tool: Tool; handle: string }
  | { kind: 'artifact'; token: string }

/**
 * A server-side proxy to the Tools API: the browser talks to it with no key (`<ToolsProvider
 * baseUrl={basePath}>`), it adds the service key. Deny by default: `authorize` decides who may
 * call which tool; jobs, files and Idempotency-Keys are bound to the user; bodies stream through.
 */
export function createToolsProxy(options: ToolsProxyOptions): ToolsProxy {
  const service = checkOptions(options)
  const basePath = options.basePath.replace(/\/+$/, '')
  const handles = createHandles(createSigner(options.secret))
  const store = options.store ?? memoryStore()
  const limits = options.limits
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD
  const artifactTtl = options.artifactTtlMs ?? DEFAULT_ARTIFACT_TTL
  const artifactBase = `${service}/artifacts/`
  const byPath = new Map<string, Tool>(TOOLS.map((tool) => [tool.path, tool]))

  let lastKey = typeof options.apiKey === 'string' ? options.apiKey : ''
  const apiKey = async () => (lastKey = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey)
  /** A log line with the key and the secret struck out, whatever an error message carried. */
  const report = (message: string) => {
    let line = `[tools proxy] ${message}`
    for (const secret of [lastKey, options.secret]) if (secret) line = line.split(secret).join('[redacted]')
    ;(options.onError ?? console.error)(line)
  }
  const toService = async (url: string, init: RequestInit & { duplex?: 'half' }) => {
    const headers = new Headers(init.headers)
    headers.set('Authorization', `Bearer ${await apiKey()}`)
    headers.set('Accept', 'application/json, */*')
    // A body is never redirected: with any mode but 'error', fetch keeps a copy of a streamed body
    // in case it must resend it (the whole upload, in memory). Reads may follow a redirect (to
    // file storage, say); fetch drops the Authorization header when one leaves the origin.
    return (options.fetch ?? globalThis.fetch)(url, { ...init, headers, redirect: init.body ? 'error' : 'follow' })
  }

  function routeOf(request: Request): Route | undefined {
    const { pathname } = new URL(request.url)
    if (!pathname.startsWith(`${basePath}/`)) return undefined
    const rest = pathname.slice(basePath.length)
    if (request.method === 'POST') {
      const tool = byPath.get(rest)
      return tool && { kind: 'call', tool }
    }
    if (request.method !== 'GET') return undefined
    const poll = /^(\/.+)\/jobs\/([^/]+)$/.exec(rest)
    const tool = poll && byPath.get(poll[1]!)
    if (tool?.mode === 'deferred') return { kind: 'poll', tool, handle: decodeSegment(poll![2]!) }
    const artifact = /^\/artifacts\/([^/]+)(?:\/[^/]*)?$/.exec(rest)
    return artifact ? { kind: 'artifact', token: decodeSegment(artifact[1]!) } : undefined
  }

  /** Counts a billable call against the user's cap; resolves with how to give it back, or null when over the cap. */
  async function reserve(user: string, tool: Tool, idempotencyKey: string | undefined) {
    const nothing = async () => {}
    if (!limits) return nothing
    // A job creation sent again with its key is replayed by the service, not billed: count it once.
    const mark = tool.mode === 'deferred' && idempotencyKey ? `counted:${idempotencyKey}` : undefined
    if (mark && !(await store.claim(mark, limits.windowMs))) return nothing
    const counter = `calls:${user}`
    const count = await store.increment(counter, 1, limits.windowMs)
    const giveBack = async () => {
      await store.increment(counter, -1, limits.windowMs)
      if (mark) await store.release(mark)
    }
    if (count > limits.calls) {
      await giveBack()
      return null
    }
    return giveBack
  }

  async function call(request: Request, user: ProxyUser, tool: Tool): Promise<Response> {
    if (!user.tools.includes(tool.id)) {
      return errorAnswer(403, PROXY_ERROR_CODES.toolNotAllowed, `The tool ${tool.id} is not enabled for this user.`, {
        details: { tool: tool.id },
      })
    }
    const tooLarge = () =>
      errorAnswer(413, PROXY_ERROR_CODES.uploadTooLarge, `The upload is larger than ${maxUploadBytes} bytes.`, {
        details: { maxBytes: maxUploadBytes },
      })
    if (Number(request.headers.get('content-length')) > maxUploadBytes) return tooLarge()

    const clientKey = request.headers.get('idempotency-key')
    const idempotencyKey = clientKey ? await handles.idempotencyKey(user.user, clientKey) : undefined
    const giveBack = await reserve(user.user, tool, idempotencyKey)
    if (!giveBack) {
      return errorAnswer(402, PROXY_ERROR_CODES.userLimit, 'This user has made all the calls allowed for now.', {
        details: limits && { limit: limits.calls, windowMs: limits.windowMs },
      })
    }

    let exceeded = false
    let sent = false
    const headers = new Headers()
    const contentType = request.headers.get('content-type')
    if (contentType) headers.set('Content-Type', contentType)
    if (idempotencyKey) headers.set('Idempotency-Key', idempotencyKey)
    let upstream: Response
    try {
      upstream = await toService(service + tool.path, {
        method: 'POST',
        headers,
        body: request.body?.pipeThrough(
          byteLimit(maxUploadBytes, {
            onExceeded: () => (exceeded = true),
            onEnd: () => (sent = true),
          }),
        ),
        duplex: 'half',
        signal: request.signal,
      })
    } catch (error) {
      if (exceeded) {
        await giveBack()
        return tooLarge()
      }
      if (request.signal.aborted) {
        // The page went away. Before its body was all sent nothing can have been billed.
        if (!sent) await giveBack()
        return errorAnswer(499, 'client_closed_request', 'The request was cancelled.')
      }
      // The call may have been processed (and billed): it stays counted.
      return unreachable(`POST ${tool.path}`, error)
    }
    if (exceeded) {
      await upstream.body?.cancel()
      await giveBack()
      return tooLarge()
    }
    // A refusal (400, 402, 403, 409, 429…) was not processed, so not billed: it does not count either.
    if (upstream.status >= 400 && upstream.status < 500) await giveBack()
    return relay(upstream, user.user, tool)
  }

  async function poll(request: Request, user: ProxyUser, tool: Tool, handle: string): Promise<Response> {
    const jobId = await handles.openJob(user.user, tool.id, handle)
    if (!jobId) return errorAnswer(404, 'job_not_found', 'No such job.')
    try {
      const upstream = await toService(`${service}${tool.path}/jobs/${encodeURIComponent(jobId)}`, { signal: request.signal })
      return await relay(upstream, user.user, tool, jobId)
    } catch (error) {
      return unreachable(`GET ${tool.path}/jobs`, error, request)
    }
  }

  async function artifact(request: Request, user: ProxyUser, token: string): Promise<Response> {
    const path = await handles.openArtifact(user.user, token, Date.now())
    if (!path?.startsWith('/artifacts/')) return errorAnswer(404, 'artifact_not_found', 'No such file, or its link has expired.')
    let upstream: Response
    try {
      upstream = await toService(service + path, { signal: request.signal })
    } catch (error) {
      return unreachable('GET /artifacts', error, request)
    }
    return upstream.ok ? downloadAnswer(upstream, path) : relay(upstream, user.user)
  }

  /**
   * The service's answer for the browser: JSON with its job ids replaced by this user's handles
   * and its file links by this user's signed links; anything else as plain text.
   */
  async function relay(upstream: Response, user: string, tool?: Tool, polledJob?: string): Promise<Response> {
    if (upstream.status === 401) {
      await upstream.body?.cancel()
      report('the service refused the API key (401): check the proxy’s apiKey')
      return errorAnswer(502, 'proxy_service_refused_key', 'The tools service refused this site’s credentials.')
    }
    const headers = relayedHeaders(upstream.headers)
    const text = await upstream.text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return new Response(text, { status: upstream.status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } })
    }
    const created = upstream.ok && !polledJob && tool?.mode === 'deferred' ? (body as { jobId?: unknown })?.jobId : undefined
    const jobId = polledJob ?? (typeof created === 'string' ? created : undefined)
    const handle = jobId && tool ? await handles.job(user, tool.id, jobId) : undefined
    const expiresAt = Date.now() + artifactTtl
    const rewrite = async (value: unknown, depth: number): Promise<unknown> => {
      if (typeof value === 'string') {
        if (handle && value === jobId) return handle
        const link = defaultInterpretation.artifacts(value, artifactBase)[0]
        if (!link) return value
        const path = link.slice(service.length)
        const token = await handles.artifact(user, path, expiresAt)
        return `${basePath}/artifacts/${token}/${encodeURIComponent(fileNameOf(path))}`
      }
      if (depth > 20 || !value || typeof value !== 'object') return value
      if (Array.isArray(value)) return Promise.all(value.map((item) => rewrite(item, depth + 1)))
      const entries = await Promise.all(
        Object.entries(value).map(async ([key, item]) => [key, await rewrite(item, depth + 1)] as const),
      )
      return Object.fromEntries(entries)
    }
    return Response.json(await rewrite(body, 0), { status: upstream.status, headers })
  }

  function unreachable(what: string, error: unknown, request?: Request): Response {
    if (request?.signal.aborted) return errorAnswer(499, 'client_closed_request', 'The request was cancelled.')
    report(`${what}: the service could not be reached (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`)
    return errorAnswer(502, 'proxy_service_unreachable', 'The tools service could not be reached.')
  }

  return {
    async handle(request) {
      const route = routeOf(request)
      if (!route) return errorAnswer(404, 'not_found', 'Not found.')
      try {
        const user = await options.authorize(request)
        if (!user || typeof user.user !== 'string' || user.user === '' || !Array.isArray(user.tools)) {
          return errorAnswer(401, PROXY_ERROR_CODES.unauthorized, 'Sign in to use the tools.')
        }
        if (route.kind === 'call') return await call(request, user, route.tool)
        if (route.kind === 'poll') return await poll(request, user, route.tool, route.handle)
        return await artifact(request, user, route.token)
      } catch (error) {
        report(`${request.method} ${new URL(request.url).pathname}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`)
        return errorAnswer(500, 'proxy_failed', 'The request could not be handled.')
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

/** Passes a body on chunk by chunk, failing it once more than `max` bytes went by. */
function byteLimit(max: number, on: { onExceeded: () => void; onEnd: () => void }): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength
      if (seen > max) {
        on.onExceeded()
        controller.error(new RangeError('The upload is too large.'))
      } else controller.enqueue(chunk)
    },
    flush: on.onEnd,
  })
}
