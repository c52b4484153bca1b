// @vitest-environment node
// What the proxy's telemetry costs per call, in process, against a service that answers at once:
// a bare hop (the request passed on with the key, nothing checked), the proxy with no
// OpenTelemetry SDK registered, with `onEvent`, and with the SDKs registered (spans batched to an
// exporter that drops them, metrics kept for a reader). Rounds alternate the scenarios, so a busy
// machine weighs on each alike; prints the median of the rounds in microseconds per call.
import { metrics, trace } from '@opentelemetry/api'
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base'
import { test } from 'vitest'
import { createToolsProxy, type ToolsProxyOptions } from '../src/server/index.js'
import { TOOLS } from '../src/tools/index.js'

const SERVICE = 'https://tools.cabinet.test/v1'
const SITE = 'https://partner.test/api/tools'
const CALLS = 2000
const ROUNDS = 7
const BODY = JSON.stringify({ propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })

const service: typeof fetch = async () => Response.json({ value: 1, requestId: 'req_1' })

const proxyWith = (options: Partial<ToolsProxyOptions> = {}) =>
  createToolsProxy({
    baseUrl: SERVICE,
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: 'a-bench-secret-of-at-least-thirty-two-characters',
    authorize: () => ({ user: 'u_1', tools: TOOLS.map((tool) => tool.id) }),
    rate: { requests: 1e9, perMs: 1000 },
    fetch: service,
    ...options,
  })

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
    { name: 'proxy, no SDK registered', proxy: proxyWith(), sdk: false },
    { name: 'proxy, onEvent (no SDK)', proxy: proxyWith({ onEvent: () => void told++ }), sdk: false },
    { name: 'proxy, SDKs registered', proxy: proxyWith(), sdk: true },
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
