// @vitest-environment node
// A job's creation writes its own keys and its person's in one trip to the store, side by side: a
// repeat of its Idempotency-Key, or its page's stream, that comes while the job's keys are still on
// their way answers from what the person's carry (the mark, the news), the same job, billed once.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { memoryStore, redisStore, type ProxyStore } from '../src/server/index.js'
import { reader } from './support/eventReader.js'
import { LONG_WINDOW, SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'

let redis: Awaited<ReturnType<typeof startRedis>>
beforeAll(async () => {
  redis = await startRedis()
}, 30_000)
afterAll(() => redis?.stop())

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const streams: AbortController[] = []
afterEach(() => {
  for (const stream of streams.splice(0)) stream.abort()
})

/** A service that bills a job per Idempotency-Key it has not seen (a key it has: the same job again), and counts its reads. */
function keyedService() {
  const seen = new Map<string, string>()
  const counts = { bills: 0, reads: 0 }
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    if (request.method !== 'POST') {
      counts.reads++
      return Response.json({ jobId: new URL(request.url).pathname.split('/').pop(), status: 'processing' })
    }
    const key = request.headers.get('idempotency-key') ?? crypto.randomUUID()
    let jobId = seen.get(key)
    if (!jobId) seen.set(key, (jobId = `job_${++counts.bills}`))
    return Response.json({ jobId, status: 'pending', requestId: 'req_1' }, { status: 202 })
  }
  return { fetch, counts }
}

/** `inner`, whose batches writing a job's status wait while the gate is shut (`shut()`, `open()`); `held` resolves once one waits. */
function gatedStore(inner: ProxyStore) {
  let shut = false
  let opened = Promise.resolve()
  let openGate = () => {}
  let hold = () => {}
  const held = new Promise<void>((resolve) => (hold = resolve))
  const writesStatus = (operations: Parameters<NonNullable<ProxyStore['batch']>>[0]) => operations.some((operation) => operation.op === 'set' && operation.key.startsWith('status:'))
  const store: ProxyStore = {
    ...inner,
    subscribe: inner.subscribe.bind(inner),
    batch: async (operations) => {
      if (shut && writesStatus(operations)) {
        hold()
        await opened
      }
      return inner.batch!(operations)
    },
  }
  return {
    store,
    held,
    shut: () => ((shut = true), (opened = new Promise<void>((resolve) => (openGate = resolve)))),
    open: () => ((shut = false), openGate()),
  }
}

const stores: [string, () => Promise<ProxyStore>][] = [
  ['memoryStore', async () => memoryStore()],
  ['redisStore', async () => redisStore(await redis.connect(), { prefix: `creation-${crypto.randomUUID()}:`, onError: () => {} })],
]

describe.each(stores)('a creation whose job’s keys are still on their way, on %s', (_name, make) => {
  /** A proxy on a gated store, with a cap of `calls`: creations with an Idempotency-Key from page `tab-1`, streams, usage. */
  async function setup(calls: number) {
    const service = keyedService()
    const gate = gatedStore(await make())
    const proxy = testProxy(service.fetch, { store: gate.store, limits: { calls, windowMs: LONG_WINDOW }, webhooks: { secret: WEBHOOK_SECRET } })
    const send = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
      proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': 'alice', 'x-tools-page': 'tab-1', ...init.headers } }))
    const create = async (key: string) => {
      const response = await send('/valuation/report', { method: 'POST', body: JSON.stringify({ objectId: 'obj_1' }), headers: { 'content-type': 'application/json', 'idempotency-key': key } })
      return { code: response.status, replayed: response.headers.get('idempotent-replayed'), ...((await response.json()) as { jobId: string; status: string }) }
    }
    const listen = async (handle: string) => {
      const controller = new AbortController()
      streams.push(controller)
      return reader(await send(`/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`, { signal: controller.signal }))
    }
    const used = async () => ((await (await send('/usage')).json()) as { used: number }).used
    return { ...gate, service, create, listen, used }
  }

  it('over the cap, a repeat answers the same job from its mark, billed once; a stream opened then carries it, with no read of the service', async () => {
    const { shut, open, held, service, create, listen, used } = await setup(2)
    const before = await create('earlier')
    shut()
    const creating = create('key-1')
    await held
    // The job's keys are held back; its person's landed beside them: the mark, the news.
    const repeat = await create('key-1')
    const stream = await listen(before.jobId)
    await stream.created()
    const joined = await stream.created()
    open()
    const first = await creating
    expect(first).toMatchObject({ code: 202, status: 'pending' })
    expect(repeat).toMatchObject({ code: 202, replayed: 'true', jobId: first.jobId, status: 'pending' })
    expect(joined).toMatchObject({ jobId: first.jobId })
    expect(service.counts).toEqual({ bills: 2, reads: 0 })
    expect(await used()).toBe(2)
  })

  it('under the cap, a repeat racing the write is the service’s replay: the same job, its count given back', async () => {
    const { shut, open, held, service, create, used } = await setup(5)
    shut()
    const creating = create('key-1')
    await held
    const repeating = create('key-1')
    open()
    const [first, repeat] = await Promise.all([creating, repeating])
    expect(repeat.jobId).toBe(first.jobId)
    expect(service.counts.bills).toBe(1)
    expect(await used()).toBe(1)
  })
})
