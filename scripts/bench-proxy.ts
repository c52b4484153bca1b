// @vitest-environment node
// The proxy's cost, in process, against a service that answers at once: what the proxy itself
// spends (routing, the handle's check, the store, rewriting the answer).
// - Per job read: microseconds per read for reads of many jobs (each read goes to the service) and
//   for a flood of reads of one job (one read reaches the service; the rest share it).
// - Per call, with and without telemetry: a bare hop (the request passed on with the key, nothing
//   checked), the proxy with no OpenTelemetry SDK registered, with `onEvent`, and with the SDKs
//   registered (spans batched to an exporter that drops them, metrics kept for a reader). Rounds
//   alternate the scenarios, so a busy machine weighs on each alike; the median of the rounds.
// - Over real HTTP, against a bare hop: p50 and p90 of a sync call and of a job read, through a bare
//   hop, the proxy on memoryStore and on redisStore (a real redis-server), as multiples of the hop
//   (scripts/bench-overhead-child.ts, built, in a process of its own).
import { spawn } from 'node:child_process'
import { metrics, trace } from '@opentelemetry/api'
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base'
import { test } from 'vitest'
import { createToolsProxy, type ToolsProxyOptions } from '../src/server/index.js'
import { TOOLS } from '../src/tools/index.js'
import { buildChild } from './bench-child.js'

const SERVICE = 'https://tools.cabinet.test/v1'
const SITE = 'https://partner.test/api/tools'

/** A proxy for the bench's service `fetch`: one user with every tool, a rate no bench meets. */
const benchProxy = (fetch: typeof globalThis.fetch, options: Partial<ToolsProxyOptions> = {}) =>
  createToolsProxy({
    baseUrl: SERVICE,
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: 'a-bench-secret-of-at-least-thirty-two-characters',
    authorize: () => ({ user: 'u_1', tools: TOOLS.map((tool) => tool.id) }),
    rate: { requests: 1e9, perMs: 1000 },
    fetch,
    ...options,
  })

test('proxy benchmark', async () => {
  let serviceReads = 0
  const proxy = benchProxy(async (input, init) => {
    const url = new URL(String(input))
    if (init?.method === 'POST') return Response.json({ jobId: `job_${Math.random().toString(16).slice(2)}`, status: 'pending', requestId: 'req_1' }, { status: 202 })
    serviceReads++
    const jobId = url.pathname.split('/').pop()
    return Response.json({ jobId, status: 'processing', progress: 0.5, preview: `${SERVICE}/artifacts/${jobId}/preview.png` })
  })
  const post = () =>
    proxy.handle(new Request(`${SITE}/pdf/create`, { method: 'POST', body: '{"objectId":"obj_1"}', headers: { 'content-type': 'application/json' } }))
  const handles = await Promise.all(Array.from({ length: 2000 }, async () => ((await (await post()).json()) as { jobId: string }).jobId))
  const read = (handle: string) => proxy.handle(new Request(`${SITE}/pdf/create/jobs/${encodeURIComponent(handle)}`))

  const time = async (reads: (() => Promise<Response>)[]) => {
    for (const one of reads.slice(0, 200)) await (await one()).text() // warm
    const start = performance.now()
    for (const one of reads) await (await one()).text()
    return ((performance.now() - start) * 1000) / reads.length
  }
  serviceReads = 0
  const many = await time(handles.map((handle) => () => read(handle)))
  const manyReads = serviceReads
  serviceReads = 0
  const one = await time(Array.from({ length: 2000 }, () => () => read(handles[0]!)))
  console.log('\nProxy benchmark (in process, an instant service)\n')
  console.table([
    { scenario: 'reads of 2,000 jobs, each once', 'µs per read': many.toFixed(0), 'service reads': manyReads },
    { scenario: '2,000 reads of one job', 'µs per read': one.toFixed(0), 'service reads': serviceReads },
  ])
})

const CALLS = 2000
const ROUNDS = 15
const BODY = JSON.stringify({ propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })

const service: typeof fetch = async () => Response.json({ value: 1, requestId: 'req_1' })

/** The least a proxy can do: the request passed on with the key, the answer passed back. */
const bareHop = {
  handle: async (request: Request) => {
    const headers = new Headers({ 'content-type': request.headers.get('content-type')!, authorization: 'Bearer server-key' })
    const upstream = await service(`${SERVICE}/valuation/rent`, { method: 'POST', headers, body: await request.arrayBuffer() })
    return new Response(upstream.body, { status: upstream.status, headers: { 'content-type': 'application/json' } })
  },
}

class Dropped implements SpanExporter {
  export(_spans: unknown[], done: (result: { code: number }) => void) {
    done({ code: 0 })
  }
  async shutdown() {}
}
class HandReader extends MetricReader {
  protected async onShutdown() {}
  protected async onForceFlush() {}
}

/** Microseconds per call for `CALLS` calls in a row. */
async function perCall(proxy: { handle(request: Request): Promise<Response> }) {
  const call = () => new Request(`${SITE}/valuation/rent`, { method: 'POST', body: BODY, headers: { 'content-type': 'application/json' } })
  const start = performance.now()
  for (let index = 0; index < CALLS; index++) await (await proxy.handle(call())).text()
  return ((performance.now() - start) * 1000) / CALLS
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

test('telemetry benchmark', async () => {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new Dropped(), { maxQueueSize: 100_000, maxExportBatchSize: 512 })] })
  const reader = new HandReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const register = (on: boolean) => {
    trace.disable()
    metrics.disable()
    if (on) {
      trace.setGlobalTracerProvider(tracerProvider)
      metrics.setGlobalMeterProvider(meterProvider)
    }
  }
  let told = 0
  const scenarios = [
    { name: 'bare hop (no checks)', proxy: bareHop, sdk: false },
    { name: 'proxy, no SDK registered', proxy: benchProxy(service), sdk: false },
    { name: 'proxy, onEvent (no SDK)', proxy: benchProxy(service, { onEvent: () => void told++ }), sdk: false },
    { name: 'proxy, SDKs registered', proxy: benchProxy(service), sdk: true },
  ]
  const results = scenarios.map(() => [] as number[])
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [index, scenario] of scenarios.entries()) {
      register(scenario.sdk)
      const micros = await perCall(scenario.proxy)
      if (round > 0) results[index]!.push(micros) // round 0 warms up
    }
  }
  register(false)
  await reader.collect()
  console.log(`\nTelemetry benchmark (in process, an instant service; median of ${ROUNDS} rounds of ${CALLS} JSON calls)\n`)
  console.table(
    scenarios.map((scenario, index) => ({
      scenario: scenario.name,
      'µs per call': median(results[index]!).toFixed(1),
      'rounds (min–max)': `${Math.min(...results[index]!).toFixed(1)}–${Math.max(...results[index]!).toFixed(1)}`,
    })),
  )
  if (told === 0) throw new Error('onEvent was never called')
})

/**
 * What the proxy adds to a request over real HTTP on loopback, against a bare hop: p50 and p90 of a
 * sync call and of a job read, through the hop and the proxy on memoryStore and on redisStore, as
 * multiples of the hop's. Measured by scripts/bench-overhead-child.ts, built and run by plain Node.
 */
test('proxy overhead over HTTP, against a bare hop', async () => {
  const child = spawn(process.execPath, [await buildChild('bench-overhead-child')], { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  for await (const chunk of child.stdout) out += String(chunk)
  const { title, rows } = JSON.parse(out) as { title: string; rows: Record<string, string>[] }
  console.log(`\n${title}\n`)
  console.table(rows)
}, 180_000)
