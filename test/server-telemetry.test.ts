// @vitest-environment node
// What the proxy tells its operators: a span per request and per request to the service, metrics,
// and `onEvent`, through the real OpenTelemetry SDKs with in-memory exporters, and never a secret.
import { AsyncLocalStorage } from 'node:async_hooks'
import { context, metrics, ROOT_CONTEXT, trace, type Context, type ContextManager } from '@opentelemetry/api'
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { webhookKey, webhookSignature } from '../src/client/standardWebhooks.js'
import type { ProxyEvent, ProxyRequestEvent, ToolsProxyOptions } from '../src/server/index.js'
import type { ToolId } from '../src/tools/index.js'
import { LONG_WINDOW, SECRET, SERVICE, SITE, testProxy } from './support/proxy.js'

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const API_KEY = 'server-key'
/** A user id and an input no telemetry may carry. */
const USER = 'alice@partner.test'
const INPUT = 'obj_private-input-7f3a'
const FILE_TEXT = 'the-uploaded-file-body-91c2'

/** A metric reader collected by hand, into an in-memory exporter. */
class HandReader extends MetricReader {
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

let jobs = 0
const spans = new InMemorySpanExporter()
let reader: HandReader
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)

beforeEach(() => {
  jobs = 0
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }))
  reader = new HandReader()
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))
})
afterEach(() => {
  trace.disable()
  metrics.disable()
  spans.reset()
  metricExporter.reset()
})

/** The metrics so far, as the exporter gets them: name → data points. */
async function collected() {
  const { resourceMetrics } = await reader.collect()
  await new Promise((resolve) => metricExporter.export(resourceMetrics, resolve))
  const points = new Map<string, { attributes: Record<string, unknown>; value: unknown }[]>()
  for (const scope of metricExporter.getMetrics().at(-1)!.scopeMetrics) {
    for (const metric of scope.metrics) points.set(metric.descriptor.name, metric.dataPoints.map(({ attributes, value }) => ({ attributes, value })))
  }
  return points
}

/** The stand-in service: a sync tool's answer, jobs (numbered from 1 in each test) that end with a file, the file. */
const service: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  const { pathname } = new URL(request.url)
  if (pathname.startsWith('/v1/artifacts/')) return new Response(FILE_TEXT, { headers: { 'content-type': 'text/plain' } })
  if (request.method === 'POST') {
    if (pathname === '/v1/valuation/rent') return Response.json({ value: 1 })
    return Response.json({ jobId: `job_private_${++jobs}`, status: 'pending' }, { status: 202 })
  }
  const jobId = pathname.split('/').pop()
  return Response.json({ jobId, status: 'completed', report: `${SERVICE}/artifacts/${jobId}/report.pdf` })
}

function proxyWith(options: Partial<ToolsProxyOptions> = {}, toolsOf?: (user: string) => readonly ToolId[] | undefined) {
  const proxy = testProxy(service, { webhooks: { secret: WEBHOOK_SECRET }, ...options }, toolsOf)
  const send = (path: string, init: RequestInit & { user?: string | null } = {}) => {
    const headers = new Headers(init.headers)
    if (init.user !== null) headers.set('x-user', init.user ?? USER)
    return proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers }))
  }
  const call = (tool: string, body: unknown) => send(`/${tool}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } })
  return { proxy, send, call }
}

const attributesOf = (span: ReadableSpan) => span.attributes
const named = (name: string) => spans.getFinishedSpans().filter((span) => span.name === name)

describe('spans', () => {
  it('makes a span per request with its route, tool, outcome and HTTP attributes, and a child span per request to the service', async () => {
    const { call, send } = proxyWith()
    const created = await call('pdf/create', { objectId: INPUT })
    const { jobId: handle } = (await created.json()) as { jobId: string }
    const [request] = named('POST /api/tools/pdf/create')
    expect(attributesOf(request!)).toMatchObject({
      'http.request.method': 'POST',
      'http.response.status_code': 202,
      'http.route': '/api/tools/pdf/create',
      'url.path': '/api/tools/pdf/create',
      'cabinet.tools.route': 'call',
      'cabinet.tools.tool': 'pdf/create',
      'cabinet.tools.outcome': 'billed',
      'cabinet.tools.billed': true,
      'cabinet.tools.upstream_status': 202,
    })
    expect(attributesOf(request!)['user.hash']).toMatch(/^[\w-]{22}$/)
    const [upstream] = named('POST /pdf/create')
    expect(upstream!.parentSpanContext?.spanId).toBe(request!.spanContext().spanId)
    expect(attributesOf(upstream!)).toMatchObject({ 'http.request.method': 'POST', 'http.response.status_code': 202, 'url.full': `${SERVICE}/pdf/create`, 'server.address': 'tools.cabinet.test' })

    const read = await send(`/pdf/create/jobs/${encodeURIComponent(handle)}`)
    expect(read.status).toBe(200)
    const [job] = named('GET /api/tools/pdf/create/jobs/{handle}')
    expect(attributesOf(job!)).toMatchObject({ 'url.path': '/api/tools/pdf/create/jobs/{handle}', 'cabinet.tools.outcome': 'answered', 'cabinet.tools.upstream_status': 200 })
    // The status its creation answered is fresh: no request to the service, no span of one.
    expect(named('GET /pdf/create/jobs/{jobId}')).toHaveLength(0)
  })

  it('tells a refusal by its code, and a failure as an error', async () => {
    const { send } = proxyWith({ fetch: async () => Promise.reject(new TypeError('fetch failed')) })
    expect((await send('/usage', { user: null })).status).toBe(401)
    expect(attributesOf(named('GET /api/tools/usage')[0]!)).toMatchObject({ 'cabinet.tools.outcome': 'refused', 'cabinet.tools.code': 'proxy_unauthorized', 'http.response.status_code': 401 })
    expect(attributesOf(named('GET /api/tools/usage')[0]!)['user.hash']).toBeUndefined()

    const failed = await send('/valuation/rent', { method: 'POST', body: JSON.stringify({ propertyCategory: 'flat', totalArea: 50, city: 'Berlin' }), headers: { 'content-type': 'application/json' } })
    expect(failed.status).toBe(502)
    const [span] = named('POST /api/tools/valuation/rent')
    // Never reached (no answer, no error code of a refused connection): it stays counted as billable.
    expect(attributesOf(span!)).toMatchObject({ 'cabinet.tools.code': 'proxy_service_unreachable', 'error.type': 'proxy_service_unreachable' })
    expect(span!.status.code).toBe(2)
    expect(attributesOf(named('POST /valuation/rent')[0]!)['error.type']).toBe('unreachable')
  })

  it('tells a key the service refuses as an error with its code, on the span and in the event', async () => {
    const events: ProxyEvent[] = []
    const { call } = proxyWith({ fetch: async () => Response.json({ error: { code: 'unauthorized' } }, { status: 401 }), onEvent: (event) => void events.push(event) })
    expect((await call('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })).status).toBe(502)
    const [span] = named('POST /api/tools/valuation/rent')
    expect(attributesOf(span!)).toMatchObject({
      'cabinet.tools.outcome': 'failed',
      'cabinet.tools.code': 'proxy_service_refused_key',
      'error.type': 'proxy_service_refused_key',
      'cabinet.tools.billed': false,
    })
    expect(span!.status.code).toBe(2)
    expect(events.find((event) => event.type === 'request')).toMatchObject({ outcome: 'failed', code: 'proxy_service_refused_key', status: 502 })
  })

  it('marks a redirect of a call or a job read as an error on the service span', async () => {
    const { call } = proxyWith({ fetch: async () => new Response(null, { status: 302, headers: { location: 'https://elsewhere.test/' } }) })
    expect((await call('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })).status).toBe(502)
    const [upstream] = named('POST /valuation/rent')
    expect(attributesOf(upstream!)).toMatchObject({ 'http.response.status_code': 302, 'error.type': 'redirect' })
    expect(upstream!.status.code).toBe(2)
  })

  it('names its instrumentation scope with the package version', async () => {
    const { call } = proxyWith()
    await call('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })
    const { version } = (await import('../package.json', { with: { type: 'json' } })).default
    expect(named('POST /api/tools/valuation/rent')[0]!.instrumentationScope).toEqual({ name: '@cabinet/tools-react', version, schemaUrl: undefined })
  })

  it('names no route on a path that matches none, and shows none of it', async () => {
    const { send } = proxyWith()
    expect((await send('/artifacts/a-token/and/more')).status).toBe(404)
    // Named by the unmatched path's low-cardinality template, never the path, and no http.route.
    const [span] = named('GET /api/tools/{unmatched}')
    expect(attributesOf(span!)).toMatchObject({ 'url.path': '/api/tools/{unmatched}', 'cabinet.tools.code': 'not_found' })
    expect(attributesOf(span!)['http.route']).toBeUndefined()
  })

  it('starts once an SDK is registered after the proxy was made', async () => {
    trace.disable()
    const { call } = proxyWith()
    await call('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })
    expect(spans.getFinishedSpans()).toHaveLength(0)
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }))
    await call('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })
    expect(named('POST /api/tools/valuation/rent')).toHaveLength(1)
  })
})

describe('without OpenTelemetry', () => {
  // The server entry imports no OpenTelemetry package (test/entries.test.ts): this is the runtime half.
  it('answers as before, and registers and makes nothing, when no API has registered anything', async () => {
    trace.disable()
    metrics.disable()
    const key = Symbol.for('opentelemetry.js.api.1')
    const global = globalThis as { [key: symbol]: unknown }
    const registry = global[key]
    delete global[key]
    try {
      const { call } = proxyWith()
      const answer = await call('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })
      expect(await answer.json()).toEqual({ value: 1 })
      expect(key in globalThis).toBe(false)
    } finally {
      global[key] = registry
    }
    expect(spans.getFinishedSpans()).toHaveLength(0)
  })
})

/** The active context per async flow, as a Node SDK registers it (AsyncLocalStorage). */
class AsyncContexts implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>()
  active = () => this.storage.getStore() ?? ROOT_CONTEXT
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(within: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A) {
    return this.storage.run(within, () => fn.call(thisArg, ...args))
  }
  bind<T>(_context: Context, target: T) {
    return target
  }
  enable = () => this
  disable = () => this
}

describe('with a context manager', () => {
  afterEach(() => {
    context.disable()
    vi.useRealTimers()
  })

  it('nests the proxy’s span in the server’s, and a job read shared by pages in the request that made it', async () => {
    context.setGlobalContextManager(new AsyncContexts())
    vi.useFakeTimers({ toFake: ['Date'] })
    const { call, send } = proxyWith({ webhooks: undefined })
    const server = trace.getTracer('partner').startSpan('GET /api/tools/*')
    const { jobId: handle } = (await (await call('pdf/create', { objectId: INPUT })).json()) as { jobId: string }
    // Past the second a status is fresh: the read goes to the service.
    vi.setSystemTime(Date.now() + 5000)
    await context.with(trace.setSpan(context.active(), server), () => send(`/pdf/create/jobs/${encodeURIComponent(handle)}`))
    server.end()
    const [request] = named('GET /api/tools/pdf/create/jobs/{handle}')
    expect(request!.parentSpanContext?.spanId).toBe(server.spanContext().spanId)
    const [read] = named('GET /pdf/create/jobs/{jobId}')
    expect(read!.parentSpanContext?.spanId).toBe(request!.spanContext().spanId)
  })
})

describe('metrics', () => {
  it('counts calls by tool and outcome, refusals by code, and the service’s latency', async () => {
    const { call } = proxyWith({ limits: { calls: 1, windowMs: LONG_WINDOW } })
    const rent = { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' }
    expect((await call('valuation/rent', rent)).status).toBe(200)
    expect((await call('valuation/rent', rent)).status).toBe(402)
    expect((await call('valuation/rent', { totalArea: -1 })).status).toBe(400)
    const points = await collected()
    expect(points.get('cabinet.tools.proxy.calls')).toEqual(
      expect.arrayContaining([
        { attributes: { 'cabinet.tools.tool': 'valuation/rent', 'cabinet.tools.outcome': 'billed' }, value: 1 },
        { attributes: { 'cabinet.tools.tool': 'valuation/rent', 'cabinet.tools.outcome': 'refused' }, value: 2 },
      ]),
    )
    expect(points.get('cabinet.tools.proxy.refusals')).toEqual(
      expect.arrayContaining([
        { attributes: { 'cabinet.tools.code': 'proxy_user_limit', 'http.response.status_code': 402 }, value: 1 },
        { attributes: { 'cabinet.tools.code': 'proxy_invalid_input', 'http.response.status_code': 400 }, value: 1 },
      ]),
    )
    const [latency] = points.get('cabinet.tools.proxy.upstream.duration')!
    expect(latency!.attributes).toEqual({ 'http.request.method': 'POST', 'url.template': '/valuation/rent', 'http.response.status_code': 200 })
    expect(latency!.value).toMatchObject({ count: 1 })
  })

  it('counts webhooks taken and refused, and the event streams open', async () => {
    const { call, send } = proxyWith()
    const { jobId: handle } = (await (await call('pdf/create', { objectId: INPUT })).json()) as { jobId: string }
    const body = JSON.stringify({ type: 'job.updated', data: { jobId: 'job_private_1', status: 'processing' } })
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) }
    const signature = await webhookSignature(await webhookKey(WEBHOOK_SECRET), headers['webhook-id'], Number(headers['webhook-timestamp']), body)
    expect((await send('/webhooks', { method: 'POST', body, user: null, headers: { ...headers, 'webhook-signature': signature } })).status).toBe(204)
    expect((await send('/webhooks', { method: 'POST', body, user: null, headers: { ...headers, 'webhook-signature': 'v1,AAAA' } })).status).toBe(401)

    const page = new AbortController()
    const stream = await send(`/events?job=${encodeURIComponent(`pdf/create:${handle}`)}`, { signal: page.signal })
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/)
    let points = await collected()
    expect(points.get('cabinet.tools.proxy.streams')).toEqual([{ attributes: {}, value: 1 }])
    expect(points.get('cabinet.tools.proxy.webhooks')).toEqual(
      expect.arrayContaining([
        { attributes: { 'cabinet.tools.outcome': 'taken' }, value: 1 },
        { attributes: { 'cabinet.tools.outcome': 'refused', 'cabinet.tools.code': 'webhook_refused' }, value: 1 },
      ]),
    )
    page.abort()
    await stream.body?.cancel().catch(() => {})
    await new Promise((resolve) => setImmediate(resolve))
    points = await collected()
    expect(points.get('cabinet.tools.proxy.streams')).toEqual([{ attributes: {}, value: 0 }])
  })
})

describe('onEvent', () => {
  it('carries the same outcomes, typed, for a logger', async () => {
    trace.disable()
    metrics.disable()
    const events: ProxyEvent[] = []
    const { call, send } = proxyWith({ onEvent: (event) => events.push(event) }, (user) => (user === 'mallory' ? ['valuation/rent'] : undefined))
    await call('pdf/create', { objectId: INPUT })
    await send('/pdf/create', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' }, user: 'mallory' })
    const requests = events.filter((event): event is ProxyRequestEvent => event.type === 'request')
    expect(requests[0]).toMatchObject({ outcome: 'billed', kind: 'call', route: '/api/tools/pdf/create', tool: 'pdf/create', status: 202, upstreamStatus: 202, billed: true })
    expect(requests[1]).toMatchObject({ outcome: 'refused', code: 'proxy_tool_not_allowed', status: 403, upstreamStatus: undefined, billed: undefined })
    expect(requests[0]!.user).toMatch(/^[\w-]{22}$/)
    expect(requests[1]!.user).not.toBe(requests[0]!.user)
    expect(events.find((event) => event.type === 'upstream')).toMatchObject({ method: 'POST', path: '/pdf/create', status: 202, failure: undefined })
  })

  it('never breaks a request when it throws or rejects: the failure goes to onError', async () => {
    trace.disable()
    metrics.disable()
    const lines: string[] = []
    for (const onEvent of [
      () => {
        throw new Error('logger down')
      },
      async () => Promise.reject(new Error('logger down')),
    ]) {
      const { send } = proxyWith({ onEvent, onError: (line) => lines.push(line) })
      expect((await send('/usage')).status).toBe(200)
    }
    await new Promise((resolve) => setImmediate(resolve))
    expect(lines.filter((line) => line.includes('onEvent failed: Error: logger down')).length).toBeGreaterThanOrEqual(2)
  })

  it('changes no answer and never ends the process, whatever onEvent and onError throw or reject with', async () => {
    trace.disable()
    metrics.disable()
    // An object with no prototype: `String()` of it throws.
    const odd = () => Object.create(null) as object
    const hooks = [
      () => {
        throw odd()
      },
      () => Promise.reject(odd()),
    ]
    const unhandled: unknown[] = []
    const record = (reason: unknown) => unhandled.push(reason)
    process.on('unhandledRejection', record)
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {})
    try {
      for (const onEvent of hooks) {
        for (const onError of hooks) {
          // One stream per user: a place not given back would refuse the next open.
          const { send, call } = proxyWith({ onEvent, onError, streamsPerUser: 1 })
          const { jobId: handle } = (await (await call('pdf/create', { objectId: 'obj_1' })).json()) as { jobId: string }
          expect(handle).toBeTypeOf('string')
          expect((await call('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })).status).toBe(200)
          for (let open = 0; open < 3; open++) {
            const page = new AbortController()
            const stream = await send(`/events?job=${encodeURIComponent(`pdf/create:${handle}`)}`, { signal: page.signal })
            expect(stream.status).toBe(200)
            page.abort()
            await stream.body?.cancel().catch(() => {})
          }
          // A failure reported to onError (an unreachable service), and a webhook refused.
          expect((await send('/webhooks', { method: 'POST', body: '{}', user: null })).status).toBe(401)
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10))
      expect(unhandled).toEqual([])
    } finally {
      process.off('unhandledRejection', record)
      quiet.mockRestore()
    }
  })
})

describe('nothing secret in telemetry', () => {
  it('carries no key, secret, handle, file token, input or user id, on any route', async () => {
    const events: ProxyEvent[] = []
    const onEvent = (event: ProxyEvent) => events.push(event)
    const secrets = [API_KEY, SECRET, WEBHOOK_SECRET, WEBHOOK_SECRET.slice(6), USER, INPUT, FILE_TEXT, 'photo.png', 'job_private_']
    const { call, send } = proxyWith({ onEvent, limits: { calls: 2, windowMs: LONG_WINDOW } }, (user) => (user === 'mallory' ? ['valuation/rent'] : undefined))

    // A JSON call, a file call, a job read with its file, the download, events, usage.
    const { jobId: handle } = (await (await call('pdf/create', { objectId: INPUT })).json()) as { jobId: string }
    const form = new FormData()
    form.set('file', new File([FILE_TEXT], 'photo.png', { type: 'image/png' }))
    form.set('mode', INPUT)
    const fileCall = await send('/photo/enhance', { method: 'POST', body: form })
    const { jobId: fileHandle } = (await fileCall.json()) as { jobId: string }
    // Webhooks, good and bad: the good one tells the job ended, with its file.
    const body = JSON.stringify({ type: 'job.updated', data: { jobId: 'job_private_1', status: 'completed', report: `${SERVICE}/artifacts/job_private_1/report.pdf` } })
    const headers = { 'webhook-id': 'msg_secret_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)) }
    const signature = await webhookSignature(await webhookKey(WEBHOOK_SECRET), headers['webhook-id'], Number(headers['webhook-timestamp']), body)
    expect((await send('/webhooks', { method: 'POST', body, user: null, headers: { ...headers, 'webhook-signature': signature } })).status).toBe(204)
    expect((await send('/webhooks', { method: 'POST', body, user: null, headers: { ...headers, 'webhook-signature': 'v1,AAAA' } })).status).toBe(401)
    const read = (await (await send(`/pdf/create/jobs/${encodeURIComponent(handle)}`)).json()) as { report: string }
    const link = new URL(read.report, SITE).pathname
    const token = decodeURIComponent(link.split('/')[4]!)
    expect((await send(link.replace('/api/tools', ''))).status).toBe(200)
    const page = new AbortController()
    const stream = await send(`/events?job=${encodeURIComponent(`pdf/create:${handle}`)}`, { signal: page.signal })
    page.abort()
    await stream.body?.cancel().catch(() => {})
    expect((await send('/usage')).status).toBe(200)
    // Refusals: 401, 402, 403, 404 (another's handle, a path with a token in it), 405, 429.
    expect((await send('/usage', { user: null })).status).toBe(401)
    expect((await call('pdf/create', { objectId: INPUT })).status).toBe(402)
    expect((await send('/pdf/create', { method: 'POST', body: JSON.stringify({ objectId: INPUT }), headers: { 'content-type': 'application/json' }, user: 'mallory' })).status).toBe(403)
    expect((await send(`/pdf/create/jobs/${encodeURIComponent(handle)}`, { user: 'bob' })).status).toBe(404)
    expect((await send(`/artifacts/${encodeURIComponent(token)}/x/y`)).status).toBe(404)
    expect((await send(`/pdf/create/jobs/${encodeURIComponent(handle)}`, { method: 'DELETE' })).status).toBe(405)
    const limited = proxyWith({ onEvent, rate: { requests: 1, perMs: LONG_WINDOW } })
    await limited.send('/usage')
    expect((await limited.send('/usage')).status).toBe(429)

    const exported = JSON.stringify({
      spans: spans.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, links: span.links, status: span.status })),
      metrics: [...(await collected()).entries()],
      events,
    })
    // 16 requests; 3 reached the service (the two calls, the download).
    expect(spans.getFinishedSpans()).toHaveLength(19)
    expect(events.filter((event) => event.type === 'request')).toHaveLength(16)
    for (const secret of [...secrets, handle, fileHandle, token, encodeURIComponent(handle), encodeURIComponent(token)]) {
      expect(exported, secret).not.toContain(secret)
    }
    // What is there: every route's template.
    for (const route of ['/pdf/create', '/photo/enhance', '/pdf/create/jobs/{handle}', '/artifacts/{token}/{name}', '/events', '/usage', '/webhooks', '/{unmatched}']) {
      expect(exported).toContain(`/api/tools${route}`)
    }
  })
})

