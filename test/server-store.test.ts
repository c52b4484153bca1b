// @vitest-environment node
// The proxy's stores keep the same promises: memoryStore in the process, redisStore on a real
// redis-server of its own. A request's store work goes to Redis in as few round trips as its steps
// allow, counted there (every command the client sends is one trip); a batch behaves the same on
// every store, and one that fails or stalls answers 503, never a crash.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { memoryStore, redisStore, type ProxyStore, type RedisEvalClient } from '../src/server/index.js'
import { guardStore, StoreUnavailable, together } from '../src/server/stores/store.js'
import { LONG_WINDOW, SERVICE, SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'
import { expectBatchAnswers } from './support/storeContract.js'

let redis: Awaited<ReturnType<typeof startRedis>>
let raw: Awaited<ReturnType<typeof redis.connect>>
beforeAll(async () => {
  redis = await startRedis()
  raw = await redis.connect()
}, 30_000)
afterAll(() => redis?.stop())

let run = 0
const stores: [string, () => { store: ProxyStore; prefix: string }][] = [
  ['memoryStore', () => ({ store: memoryStore(), prefix: '' })],
  [
    'redisStore',
    () => {
      const prefix = `store-test-${++run}:`
      return { store: redisStore(raw, { prefix, onError: () => {} }), prefix }
    },
  ],
]

// Each operation, a batch, a failing store and two instances on one store: test/support/storeContract.ts, on every store.

describe('expiry', () => {
  it('memoryStore forgets a counter and a claim when their time is up', async () => {
    vi.useFakeTimers()
    try {
      const store = memoryStore()
      await store.increment('{t}calls:a', 1, 1000)
      await store.claim('{t}seen:k', 1000)
      await vi.advanceTimersByTimeAsync(999)
      expect(await store.increment('{t}calls:a', 1, 1000)).toBe(2)
      expect(await store.claim('{t}seen:k', 1000)).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(await store.increment('{t}calls:a', 1, 1000)).toBe(1)
      expect(await store.claim('{t}seen:k', 1000)).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('redisStore sets the time to live when it creates a key, and leaves it after', async () => {
    const { store, prefix } = stores[1]![1]()
    await store.increment('{t}calls:a', 1, 50_000)
    const first = await raw.pTTL(`${prefix}{t}calls:a`)
    expect(first).toBeGreaterThan(40_000)
    expect(first).toBeLessThanOrEqual(50_000)
    await store.increment('{t}calls:a', 1, 900_000)
    expect(await raw.pTTL(`${prefix}{t}calls:a`)).toBeLessThanOrEqual(50_000)
    await store.claim('{t}seen:k', 30_000)
    expect(await raw.pTTL(`${prefix}{t}seen:k`)).toBeGreaterThan(20_000)
  })

  it('a list expires its time to live after its last push', async () => {
    vi.useFakeTimers()
    try {
      const store = memoryStore()
      await store.push!('{t}recent', 'a', 50, 1000)
      await vi.advanceTimersByTimeAsync(600)
      await store.push!('{t}recent', 'b', 50, 1000)
      await vi.advanceTimersByTimeAsync(600)
      expect(await store.list!('{t}recent')).toEqual(['a', 'b'])
      await vi.advanceTimersByTimeAsync(400)
      expect(await store.list!('{t}recent')).toEqual([])
    } finally {
      vi.useRealTimers()
    }
    const { store, prefix } = stores[1]![1]()
    await store.push!('{t}recent', 'a', 50, 900_000)
    await store.push!('{t}recent', 'b', 50, 30_000)
    const ttl = await raw.pTTL(`${prefix}{t}recent`)
    expect(ttl).toBeGreaterThan(20_000)
    expect(ttl).toBeLessThanOrEqual(30_000)
  })
})

describe('redisStore through a stall (a real redis-server, frozen)', () => {
  it('a subscription that timed out while Redis was frozen is not left behind: each message is heard once', async () => {
    const client = await redis.connect()
    const store = guardStore(redisStore(client, { prefix: 'stalled-subscribe:', onError: () => {} }), 1000)
    const heard: string[] = []
    const listener = { message: (message: string) => heard.push(message) }
    // The subscribing connection is open before the stall: only the channel's subscription waits.
    await (await store.subscribe('{t}warm', listener))()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    redis.pause()
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const subscribing = store.subscribe('{t}jobs', listener)
        const failed = expect(subscribing).rejects.toBeInstanceOf(StoreUnavailable)
        await vi.advanceTimersByTimeAsync(1000)
        await failed
      }
    } finally {
      redis.resume()
      vi.useRealTimers()
    }
    const stop = await store.subscribe('{t}jobs', listener)
    await store.publish('{t}jobs', 'one')
    await vi.waitFor(() => expect(heard).toContain('one'))
    await store.publish('{t}jobs', 'two')
    await vi.waitFor(() => expect(heard).toContain('two'))
    expect(heard).toEqual(['one', 'two'])
    await stop()
  })
})

/**
 * redisStore on the test's redis-server, counting its round trips (`trips`: commands sent while
 * none is in flight start one; those sent alongside ride it, as a pipeline does) and its `commands`.
 */
function countedRedis() {
  const counted = { trips: 0, commands: 0, byText: 0 }
  let open = 0
  const sent = <T>(command: () => Promise<T>): Promise<T> => {
    counted.commands++
    if (open++ === 0) counted.trips++
    return command().finally(() => open--)
  }
  const client: RedisEvalClient = {
    eval: (script, options) => (counted.byText++, sent(() => raw.eval(script, options))),
    evalSha: (sha1, options) => sent(() => raw.evalSha(sha1, options)),
    publish: (channel, message) => sent(() => raw.publish(channel, message)),
    duplicate: () => raw.duplicate(),
  }
  return { store: redisStore(client, { prefix: `trips-${++run}:`, onError: () => {} }), counted }
}

/** A service that answers a rent estimate at once, creates report jobs and reads them with a file link. */
const service: typeof fetch = async (input, init) => {
  const url = new URL(String(input))
  if (url.pathname.endsWith('/valuation/rent')) return Response.json({ value: 1234, requestId: 'req_1' })
  if (init?.method === 'POST') return Response.json({ jobId: `job_${url.pathname.length}_${Math.random()}`, status: 'pending' }, { status: 202 })
  const jobId = decodeURIComponent(url.pathname.split('/').pop()!)
  return Response.json({ jobId, status: 'processing', report: `${SERVICE}/artifacts/${jobId}/report.pdf` })
}

describe('round trips to Redis, per request', () => {
  it('the script goes by its SHA-1, and by its text once Redis has lost it', async () => {
    const { store, counted } = countedRedis()
    await raw.scriptFlush()
    expect(await store.claim('{t}a', 60_000)).toBe(true)
    expect(await store.claim('{t}a', 60_000)).toBe(false)
    // One refused by SHA-1, sent again by its text; then by SHA-1 alone.
    expect(counted).toEqual({ trips: 3, commands: 3, byText: 1 })
  })

  const setup = (options: Parameters<typeof testProxy>[1] = {}) => {
    const { store, counted } = countedRedis()
    const proxy = testProxy(service, { store, ...options })
    const send = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
      proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': 'alice', 'content-type': 'application/json', ...init.headers } }))
    /** The answer's status and the trips its request took. */
    const trips = async (path: string, init?: Parameters<typeof send>[1]) => {
      const before = counted.trips
      const response = await send(path, init)
      const body = (await response.json()) as { jobId?: string; report?: string | null }
      return { status: response.status, trips: counted.trips - before, body }
    }
    return { trips }
  }
  const post = (body: unknown) => ({ method: 'POST', body: JSON.stringify(body) })
  const RENT = { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' }

  it('a sync call: one, its rate with its place under the spend cap once its body is checked', async () => {
    expect(await setup().trips('/valuation/rent', post(RENT))).toMatchObject({ status: 200, trips: 1 })
    const capped = setup({ limits: { calls: 1, windowMs: LONG_WINDOW }, rate: { requests: 2, perMs: LONG_WINDOW } })
    expect(await capped.trips('/valuation/rent', post(RENT))).toMatchObject({ status: 200, trips: 1 })
    // Over the cap: one more to give the place back. Over the rate too: the rate answers, the cap is given back.
    expect(await capped.trips('/valuation/rent', post(RENT))).toMatchObject({ status: 402, trips: 2 })
    expect(await capped.trips('/valuation/rent', post(RENT))).toMatchObject({ status: 429, trips: 2 })
    // Input the tool does not take is counted under the rate alone, and the rate answers first.
    expect(await capped.trips('/valuation/rent', post({}))).toMatchObject({ status: 429, trips: 1 })
  })

  it('a job read: one when the store answers it; reaching the service, one before and one after, its new links held with the write', async () => {
    const { trips } = setup()
    const created = await trips('/valuation/report', post({ objectId: 'obj_1' }))
    // Its rate before the service; after, one: its first status (unless the store holds one: a
    // replayed creation's job may have moved on) with what its request carried, and beside it the
    // news for the person's streams (their tag: keys.ts), carrying that first status.
    expect(created).toMatchObject({ status: 202, trips: 2 })
    // With an Idempotency-Key under a cap, from a page: its mark and its page's recent jobs ride the same two.
    const capped = setup({ limits: { calls: 10, windowMs: LONG_WINDOW } })
    const keyed = { ...post({ objectId: 'obj_1' }), headers: { 'idempotency-key': 'key-1', 'x-tools-page': 'tab-1' } }
    expect(await capped.trips('/valuation/report', keyed)).toMatchObject({ status: 202, trips: 2 })
    const path = `/valuation/report/jobs/${encodeURIComponent(created.body.jobId!)}`
    const first = await trips(path)
    expect(first.status).toBe(200)
    expect(first.body.report).toMatch(/^\/api\/tools\/artifacts\//)
    // Status, watcher's lease, what the request carried and the claim; the write with the claim's release and the file's first user.
    expect(first.trips).toBe(2)
    // Read again at once: the store's snapshot is fresh, and the link was signed for this user lately.
    const again = await trips(path)
    expect(again).toMatchObject({ status: 200, trips: 1 })
    expect(again.body.report).toBe(first.body.report)
  })
})

describe('a job read that reaches the service, and the store write of its answer', () => {
  /** A proxy on memoryStore whose writes of a job's status wait for `open()`; `order` tells when the write landed and the page was answered. */
  const gated = (answer: Record<string, unknown>) => {
    const inner = memoryStore()
    let openGate = () => {}
    let enter = () => {}
    const gate = new Promise<void>((resolve) => (openGate = resolve))
    const entered = new Promise<void>((resolve) => (enter = resolve))
    const order: string[] = []
    let closed = false
    const store: ProxyStore = {
      ...inner,
      batch: async (operations) => {
        if (!closed || !operations.some((operation) => operation.op === 'set' && operation.key.startsWith('status:'))) return inner.batch!(operations)
        enter()
        await gate
        const answers = await inner.batch!(operations)
        order.push('written')
        return answers
      },
    }
    let reads = 0
    const service: typeof fetch = async (_input, init) => {
      if (init?.method === 'POST') return Response.json({ jobId: 'job_1', status: 'pending' }, { status: 202 })
      reads++
      return Response.json({ jobId: 'job_1', ...answer })
    }
    const proxy = testProxy(service, { store })
    const send = async (path: string, init: RequestInit = {}) => {
      const response = await proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': 'alice', 'content-type': 'application/json' } }))
      return (await response.json()) as { jobId: string; status: string; report?: string | null }
    }
    return {
      order,
      entered,
      reads: () => reads,
      open: () => openGate(),
      async start() {
        const { jobId } = await send('/valuation/report', { method: 'POST', body: JSON.stringify({ objectId: 'obj_1' }) })
        closed = true
        const path = `/valuation/report/jobs/${encodeURIComponent(jobId)}`
        return { path, read: () => send(path).then((body) => (order.push('answered'), body)) }
      },
    }
  }

  it('a running job with no new file: the page is answered before the write lands, which lands after', async () => {
    const { order, entered, reads, open, start } = gated({ status: 'processing' })
    const { read } = await start()
    const answered = read()
    await entered
    // Answered while the write is held back: a round trip sooner.
    await vi.waitFor(() => expect(order).toEqual(['answered']), { timeout: 2000, interval: 5 })
    expect((await answered).status).toBe('processing')
    open()
    await vi.waitFor(() => expect(order).toEqual(['answered', 'written']), { timeout: 2000, interval: 5 })
    expect(reads()).toBe(1)
  })

  it.each([
    ['an answer naming a new file (held for its user first)', { status: 'processing', report: `${SERVICE}/artifacts/job_1/report.pdf` }],
    ['an end (the first end written wins)', { status: 'completed' }],
  ])('%s waits for the write', async (_name, answer) => {
    const { order, entered, open, start } = gated(answer)
    const { read } = await start()
    const answered = read()
    await entered
    open()
    const body = await answered
    expect(order).toEqual(['written', 'answered'])
    expect(body.status).toBe(answer.status)
    if ('report' in answer) expect(body.report).toMatch(/^\/api\/tools\/artifacts\//)
  })
})

describe('a creation answered again (the same Idempotency-Key, a job that has moved on)', () => {
  it.each([
    ['memoryStore', () => memoryStore()],
    ['redisStore', () => countedRedis().store],
  ])('on %s, the store keeps the later status: no step back, no read of the service again', async (_name, make) => {
    let reads = 0
    const service: typeof fetch = async (_input, init) => {
      if (init?.method === 'POST') return Response.json({ jobId: 'job_replayed', status: 'pending' }, { status: 202 })
      reads++
      return Response.json({ jobId: 'job_replayed', status: 'processing', progress: 0.5 })
    }
    const proxy = testProxy(service, { store: make() })
    const send = async (path: string, init: RequestInit = {}) => {
      const headers = { 'x-user': 'alice', 'content-type': 'application/json', 'idempotency-key': 'key-1' }
      return (await (await proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers }))).json()) as { jobId: string; status: string }
    }
    const create = () => send('/valuation/report', { method: 'POST', body: JSON.stringify({ objectId: 'obj_1' }) })
    const { jobId } = await create()
    const path = `/valuation/report/jobs/${encodeURIComponent(jobId)}`
    expect((await send(path)).status).toBe('processing')
    expect((await create()).jobId).toBe(jobId)
    // Read again at once: the status kept is the later one, fresh.
    expect((await send(path)).status).toBe('processing')
    expect(reads).toBe(1)
  })
})

const batchStores: [string, () => ProxyStore][] = [
  // A store of a partner's, with no `batch` of its own: the operations run one by one.
  ['a store without batch', () => ({ ...memoryStore(), batch: undefined })],
]

describe.each(batchStores)('a batch on %s', (_name, make) => {
  it('answers each operation as its method would, in order, skipping what its condition rules out', () => expectBatchAnswers(make()))

  it('publishes within a batch to every subscriber', async () => {
    const store = make()
    const heard: string[] = []
    const stop = await store.subscribe('{t}jobs', { message: (message) => heard.push(message) })
    await together(store, [{ op: 'publish', channel: '{t}jobs', message: 'news' }])
    await vi.waitFor(() => expect(heard).toEqual(['news']))
    await stop()
  })
})

describe('a batch while Redis fails', () => {
  it('a stalled Redis: the batch fails after the store limit, and the proxy answers 503', async () => {
    const client = await redis.connect()
    const store = redisStore(client, { prefix: 'trips-stall:', onError: () => {} })
    const guarded = guardStore(store, 1000)
    const proxy = testProxy(service, { store })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    redis.pause()
    try {
      const batch = guarded.batch!([{ op: 'get', key: '{t}a' }, { op: 'claim', key: '{t}b', ttlMs: 1000 }])
      const failed = expect(batch).rejects.toBeInstanceOf(StoreUnavailable)
      const answer = proxy.handle(new Request(`${SITE}/api/tools/valuation/rent`, { method: 'POST', body: '{}', headers: { 'x-user': 'alice', 'content-type': 'application/json' } }))
      await vi.advanceTimersByTimeAsync(1000)
      await failed
      const response = await answer
      expect(response.status).toBe(503)
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('store_unavailable')
    } finally {
      redis.resume()
      vi.useRealTimers()
    }
  })
})
