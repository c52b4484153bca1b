// What the proxy did, told to OpenTelemetry (when an SDK is registered, see otel.ts) and to
// `onEvent`. With nothing registered and no `onEvent`, a request costs one property read.
import type { ToolId } from '../../tools/index.js'
import { proxyCodeOf } from '../answers.js'
import { callHook, thrownText } from '../partnerHooks.js'
import { registeredOtel, SPAN_CLIENT, SPAN_INTERNAL, SPAN_KEY, SpanContext, STATUS_ERROR, type Instruments, type OtelSpan } from './otel.js'
import type { ProxyEvent, ProxyOutcome, ProxyRequestEvent, ProxyRouteKind, ProxyUpstreamEvent } from './proxyEvent.js'
import type { Signer } from '../tokens/signing.js'
import { isRedirect, UpstreamFailure } from '../upstream.js'

/** User hashes kept, at most, before the cache starts over. */
const MAX_HASHES = 1000

/** What the router and the routes tell of a request, as they learn it. */
export interface RequestFacts {
  kind?: ProxyRouteKind
  route?: string
  tool?: ToolId
  /** The user's id: only its keyed hash is ever told. */
  user?: string
  billed?: boolean
  upstreamStatus?: number
}

interface Observed extends RequestFacts {
  span: OtelSpan | undefined
  userHash?: Promise<string>
}

/** The service's path with its job ids and file paths replaced: no id, few distinct values. */
const upstreamTemplate = (path: string) => path.replace(/^\/artifacts\/.*$/, '/artifacts/{file}').replace(/\/jobs\/[^/]+$/, '/jobs/{jobId}')

export function createTelemetry(options: {
  basePath: string
  /** The service's base address, ending in `/v1`. */
  service: string
  onEvent: ((event: ProxyEvent) => void) | undefined
  /** Hashes a user's id with the proxy's secret. */
  signer: Signer
  report: (message: string) => void
}) {
  const { basePath, service, onEvent, signer, report } = options
  const observed = new WeakMap<Request, Observed>()
  const hashes = new Map<string, Promise<string>>()
  let openStreams = 0

  const registered = registeredOtel()

  /** Tells `onEvent`; one that throws (or rejects) is reported and never breaks the request. */
  const tell = (event: ProxyEvent) => callHook(onEvent, [event], (text) => report(`onEvent failed: ${text}`))

  const hashOf = (user: string) => {
    let hash = hashes.get(user)
    if (!hash) {
      if (hashes.size >= MAX_HASHES) hashes.clear()
      hash = signer.sign(['telemetry', user]).then((signature) => signature.slice(0, 22))
      hashes.set(user, hash)
    }
    return hash
  }

  const upstreamSide: UpstreamSide = { registered, onEvent, observed, service, serviceHost: new URL(service).hostname, tell }

  return {
    /** Answers `request` with `answer()` inside a span of its own, then tells what became of it. */
    async observe(request: Request, answer: () => Promise<Response>): Promise<Response> {
      const now = registered()
      if (!now.tracer && !now.instruments && !onEvent) return answer()
      const started = performance.now()
      const span = now.tracer?.startSpan(request.method, { kind: SPAN_INTERNAL, attributes: { 'http.request.method': request.method } })
      const facts: Observed = { span }
      observed.set(request, facts)
      // With a context manager, what runs inside (a shared job read, the partner's fetch instrumentation) is the span's child.
      const { context } = now
      let response: Response
      try {
        response = await (span && context ? context.with(context.active().setValue(SPAN_KEY, span), answer) : answer())
      } catch (error) {
        span?.end()
        throw error
      }
      await finish({ basePath, tell }, request, facts, response, started, now.instruments).catch((error: unknown) => report(`telemetry failed: ${thrownText(error)}`))
      return response
    },

    /** What the router or a route learned of a request being observed. */
    note(request: Request, facts: RequestFacts) {
      const known = observed.get(request)
      if (!known) return
      Object.assign(known, facts)
      if (facts.user !== undefined) known.userHash = hashOf(facts.user)
    },

    /** One request to the service (`path` under its base) by `send()`; `from` is the page's request it serves, when there is one. */
    upstream: (request: UpstreamRequest, send: () => Promise<Response>) => observeUpstream(upstreamSide, request, send),

    /** An event stream opened or closed on this instance. */
    stream(change: 'opened' | 'closed') {
      openStreams += change === 'opened' ? 1 : -1
      registered().instruments?.streams.add(change === 'opened' ? 1 : -1)
      tell({ type: 'stream', change, open: openStreams })
    },
  }
}

export type Telemetry = ReturnType<typeof createTelemetry>

/** The end of an observed request: its span's attributes and end, its metrics, its event. */
async function finish(
  { basePath, tell }: { basePath: string; tell: (event: ProxyEvent) => void },
  request: Request,
  facts: Observed,
  response: Response,
  started: number,
  instruments: Instruments | undefined,
) {
  const { span, kind, route, tool, billed, upstreamStatus } = facts
  const { status } = response
  const code = proxyCodeOf(response)
  const outcome: ProxyOutcome = billed ? 'billed' : !code ? 'answered' : status < 499 ? 'refused' : 'failed'
  const user = facts.userHash && (await facts.userHash.catch(() => undefined))
  const path = route ?? `${basePath}/{unmatched}`
  if (span) {
    // An unmatched path is named by its low-cardinality template, `{basePath}/{unmatched}`, never the path itself.
    span.updateName(`${request.method} ${path}`)
    span.setAttributes({
      'http.request.method': request.method,
      'http.response.status_code': status,
      'http.route': route,
      'url.path': path,
      'error.type': status >= 500 ? (code ?? String(status)) : undefined,
      'user.hash': user,
      'cabinet.tools.route': kind,
      'cabinet.tools.tool': tool,
      'cabinet.tools.outcome': outcome,
      'cabinet.tools.code': code,
      'cabinet.tools.upstream_status': upstreamStatus,
      'cabinet.tools.billed': billed,
    })
    if (status >= 500) span.setStatus({ code: STATUS_ERROR })
    span.end()
  }
  if (instruments) {
    if (kind === 'call') instruments.calls.add(1, { 'cabinet.tools.tool': tool, 'cabinet.tools.outcome': outcome })
    if (code) instruments.refusals.add(1, { 'cabinet.tools.code': code, 'http.response.status_code': status })
    if (kind === 'webhooks') instruments.webhooks.add(1, { 'cabinet.tools.outcome': status < 300 ? 'taken' : 'refused', 'cabinet.tools.code': code })
  }
  const event: ProxyRequestEvent = {
    type: 'request',
    outcome,
    method: request.method,
    kind,
    route,
    path,
    tool,
    status,
    code,
    upstreamStatus,
    billed,
    user,
    durationMs: performance.now() - started,
  }
  tell(event)
}

/** A request to the service, as the telemetry sees it. */
export interface UpstreamRequest {
  method: string
  path: string
  from?: Request
}

/** What observing a request to the service needs of its proxy's telemetry. */
interface UpstreamSide {
  registered: ReturnType<typeof registeredOtel>
  onEvent: ((event: ProxyEvent) => void) | undefined
  observed: WeakMap<Request, Observed>
  service: string
  serviceHost: string
  tell: (event: ProxyEvent) => void
}

/** One request to the service inside its span (a child of the page's request's, when there is one), with its metric and its event. */
async function observeUpstream(side: UpstreamSide, request: UpstreamRequest, send: () => Promise<Response>): Promise<Response> {
  const { registered, onEvent, observed, service, serviceHost, tell } = side
  const now = registered()
  if (!now.tracer && !now.instruments && !onEvent) return send()
  const { method, from } = request
  const template = upstreamTemplate(request.path)
  const parent = from && observed.get(from)
  const context = parent?.span ? (now.context?.active() ?? new SpanContext()).setValue(SPAN_KEY, parent.span) : undefined
  const attributes = { 'http.request.method': method, 'url.template': template, 'url.full': service + template, 'server.address': serviceHost }
  const span = now.tracer?.startSpan(`${method} ${template}`, { kind: SPAN_CLIENT, attributes }, context)
  const started = performance.now()
  let status: number | undefined
  let failure: ProxyUpstreamEvent['failure']
  try {
    const response = await send()
    status = response.status
    if (parent) parent.upstreamStatus = status
    // A call's or job read's redirect is never followed (a 502 to the page); a download's may be, to `downloadOrigins`.
    if (isRedirect(response) && !template.startsWith('/artifacts/')) failure = 'redirect'
    return response
  } catch (error) {
    failure = error instanceof UpstreamFailure ? error.reason : 'unreachable'
    throw error
  } finally {
    const seconds = (performance.now() - started) / 1000
    const errorType = failure ?? (status! >= 500 ? String(status) : undefined)
    span?.setAttributes({ 'http.response.status_code': status, 'error.type': errorType })
    if (errorType) span?.setStatus({ code: STATUS_ERROR })
    span?.end()
    now.instruments?.upstream.record(seconds, { 'http.request.method': method, 'url.template': template, 'http.response.status_code': status, 'error.type': errorType })
    tell({ type: 'upstream', method, path: template, status, failure, durationMs: seconds * 1000 })
  }
}
