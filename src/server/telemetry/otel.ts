// The part of `@opentelemetry/api` 1.x the proxy reads, without importing it: an optional peer
// that a static import would break for a partner without it, and a dynamic one for bundlers. Its
// 1.x registers every provider on one global object (`Symbol.for('opentelemetry.js.api.1')`),
// whichever copy of the API did it, and keys a context's span with a well-known symbol.

/** The part of `@opentelemetry/api` 1.x the proxy uses (test/types.test-d.ts checks the real one fits). */
export type OtelAttributes = Record<string, string | number | boolean | undefined>
export interface OtelContext {
  getValue(key: symbol): unknown
  setValue(key: symbol, value: unknown): OtelContext
  deleteValue(key: symbol): OtelContext
}
export interface OtelSpan {
  setAttributes(attributes: OtelAttributes): unknown
  setStatus(status: { code: number }): unknown
  updateName(name: string): unknown
  end(): void
}
export interface OtelTracer {
  startSpan(name: string, options?: { kind?: number; attributes?: OtelAttributes }, context?: OtelContext): OtelSpan
}
export interface OtelInstrument {
  add(value: number, attributes?: OtelAttributes): void
}
export interface OtelHistogram {
  record(value: number, attributes?: OtelAttributes): void
}
type InstrumentOptions = { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } }
export interface OtelMeter {
  createCounter(name: string, options?: InstrumentOptions): OtelInstrument
  createUpDownCounter(name: string, options?: InstrumentOptions): OtelInstrument
  createHistogram(name: string, options?: InstrumentOptions): OtelHistogram
}
export interface OtelRegistry {
  trace?: { getTracer(name: string, version?: string): OtelTracer }
  metrics?: { getMeter(name: string, version?: string): OtelMeter }
  context?: { active(): OtelContext; with<T>(context: OtelContext, fn: () => T): T }
}

const REGISTRY = Symbol.for('opentelemetry.js.api.1')
export const SPAN_KEY = Symbol.for('OpenTelemetry Context Key SPAN')
const SCOPE = '@cabinet/tools-react'
// The package's version, written in by the build (vite.lib.config.ts) and the tests (vite.config.ts) from package.json.
declare const __TOOLS_REACT_VERSION__: string | undefined
const VERSION = typeof __TOOLS_REACT_VERSION__ === 'string' ? __TOOLS_REACT_VERSION__ : undefined
export const SPAN_INTERNAL = 0
export const SPAN_CLIENT = 2
export const STATUS_ERROR = 2
/** The semantic conventions' buckets for HTTP durations, in seconds. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]

/** A context with a parent span, for a runtime with no context manager registered. */
export class SpanContext implements OtelContext {
  constructor(private readonly values = new Map<symbol, unknown>()) {}
  getValue(key: symbol) {
    return this.values.get(key)
  }
  setValue(key: symbol, value: unknown): OtelContext {
    return new SpanContext(new Map(this.values).set(key, value))
  }
  deleteValue(key: symbol): OtelContext {
    const values = new Map(this.values)
    values.delete(key)
    return new SpanContext(values)
  }
}

/** The instruments, made once per meter provider. */
function instrumentsOf(meter: OtelMeter) {
  return {
    calls: meter.createCounter('cabinet.tools.proxy.calls', { description: 'Tool calls, by tool and outcome.' }),
    refusals: meter.createCounter('cabinet.tools.proxy.refusals', { description: 'The proxy’s own error answers, by code.' }),
    upstream: meter.createHistogram('cabinet.tools.proxy.upstream.duration', {
      description: 'Requests to the service, until their answer’s headers.',
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
    webhooks: meter.createCounter('cabinet.tools.proxy.webhooks', { description: 'Webhooks taken in and refused.' }),
    streams: meter.createUpDownCounter('cabinet.tools.proxy.streams', { description: 'Event streams open.' }),
  }
}

export type Instruments = ReturnType<typeof instrumentsOf>

export interface Registered {
  tracer: OtelTracer | undefined
  instruments: Instruments | undefined
  context: OtelRegistry['context']
}
const NOTHING: Registered = { tracer: undefined, instruments: undefined, context: undefined }

/** What is registered now, read on each use (an SDK may be registered after the proxy is made): a tracer, instruments, a context manager. */
export function registeredOtel(): () => Registered {
  let tracer: { of: unknown; tracer: OtelTracer } | undefined
  let meter: { of: unknown; instruments: Instruments } | undefined
  return () => {
    const registry = (globalThis as { [REGISTRY]?: OtelRegistry })[REGISTRY]
    if (!registry) return NOTHING
    const { trace, metrics, context } = registry
    if (trace && tracer?.of !== trace) tracer = { of: trace, tracer: trace.getTracer(SCOPE, VERSION) }
    if (metrics && meter?.of !== metrics) meter = { of: metrics, instruments: instrumentsOf(metrics.getMeter(SCOPE, VERSION)) }
    return { tracer: trace && tracer!.tracer, instruments: metrics && meter!.instruments, context }
  }
}
