// One store contract, written once: every store the proxy runs on (memoryStore, redisStore on one
// Redis and on a Redis Cluster, and any other) is held to the same operations, the same answer when
// it fails, and the same promises across two proxy instances sharing it.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { webhookKey, webhookSignature } from '../../src/client/standardWebhooks.js'
import type { ProxyStore, ToolsProxyOptions } from '../../src/server/index.js'
import { guardStore, StoreUnavailable, together, type StoreOperation } from '../../src/server/stores/store.js'
import { keys } from '../../src/server/keys.js'
import { reader } from './eventReader.js'
import { LONG_WINDOW, SERVICE, SITE, testProxy } from './proxy.js'

export interface StoreContract {
  /** A store of its own (nothing another call's store wrote shows in it). */
  make(): Promise<ProxyStore>
  /** Two stores on the same shared state, as two instances of the proxy (two processes, two isolates) have them. */
  twoInstances(): Promise<[ProxyStore, ProxyStore]>
  /** A store whose backing has failed (gone, or stalled past the proxy's second): omitted where it cannot fail (memory). */
  failed?(): Promise<ProxyStore>
}

/** Every promise of a store, on `name`'s; a store on another runtime is one more call with its own factories. */
export function describeStoreContract(name: string, contract: StoreContract) {
  describe(`${name}: each operation`, () => describeOperations(contract))
  describe(`${name}: a batch`, () => describeBatch(contract))
  if (contract.failed) describe(`${name}: when it fails`, () => describeFailure(contract.failed!))
  describe(`${name}: two proxy instances on it`, () => describeInstances(contract))
}

function describeOperations({ make }: StoreContract) {
  it('keeps text for a while, and holds the first writer’s value (renewed by it)', async () => {
    const store = await make()
    expect(await store.get('status:{t}')).toBeUndefined()
    await store.set('status:{t}', '{"status":"pending"}', 60_000)
    expect(await store.get('status:{t}')).toBe('{"status":"pending"}')
    await store.set('status:{t}', '{"status":"done"}', 60_000)
    expect(await store.get('status:{t}')).toBe('{"status":"done"}')
    expect(await store.hold('owner:{t}', 'alice', 60_000)).toBe('alice')
    expect(await store.hold('owner:{t}', 'bob', 60_000)).toBe('alice')
    expect(await store.hold('owner:{t}', 'alice', 60_000)).toBe('alice')
  })

  it('counts up and down; a give-back or a read never creates a counter', async () => {
    const store = await make()
    expect(await store.increment('calls:{t}:a', 1, 60_000)).toBe(1)
    expect(await store.increment('calls:{t}:a', 1, 60_000)).toBe(2)
    expect(await store.increment('calls:{t}:a', -1, 60_000)).toBe(1)
    expect(await store.increment('calls:{t}:b', -1, 60_000)).toBe(0)
    // A delta of 0 reads, creating nothing either.
    expect(await store.increment('calls:{t}:b', 0, 60_000)).toBe(0)
    expect(await store.increment('calls:{t}:b', -1, 60_000)).toBe(0)
    expect(await store.increment('calls:{t}:b', 1, 60_000)).toBe(1)
    expect(await store.increment('calls:{t}:b', 0, 60_000)).toBe(1)
  })

  it('counts exactly under concurrent increments', async () => {
    const store = await make()
    const counts = await Promise.all(Array.from({ length: 200 }, () => store.increment('calls:{t}:c', 1, 60_000)))
    expect(new Set(counts).size).toBe(200)
    expect(Math.max(...counts)).toBe(200)
  })

  it('claims a key once until it is released', async () => {
    const store = await make()
    expect(await store.claim('seen:{t}', 60_000)).toBe(true)
    expect(await store.claim('seen:{t}', 60_000)).toBe(false)
    await store.release('seen:{t}')
    expect(await store.claim('seen:{t}', 60_000)).toBe(true)
  })

  it('leases a key to one owner at a time; the owner renews it', async () => {
    const store = await make()
    expect(await store.lease('lease:{t}', 'instance-a', 60_000)).toBe(true)
    expect(await store.lease('lease:{t}', 'instance-b', 60_000)).toBe(false)
    expect(await store.lease('lease:{t}', 'instance-a', 60_000)).toBe(true)
    const racers = await Promise.all(['x', 'y', 'z'].map((owner) => store.lease('lease:{o}', owner, 60_000)))
    expect(racers.filter(Boolean)).toHaveLength(1)
  })

  it('keeps a list of its last `max` pushes, oldest first', async () => {
    const store = await make()
    expect(await store.list!('recent:{t}')).toEqual([])
    for (const value of ['a', 'b', 'c', 'd']) await store.push!('recent:{t}', value, 3, 60_000)
    expect(await store.list!('recent:{t}')).toEqual(['b', 'c', 'd'])
    await Promise.all(Array.from({ length: 20 }, (_, n) => store.push!('racing:{t}', String(n), 50, 60_000)))
    expect((await store.list!('racing:{t}')).sort()).toEqual(Array.from({ length: 20 }, (_, n) => String(n)).sort())
  })

  it('publishes to every subscriber of a channel, until each stops', async () => {
    const store = await make()
    const heard: string[][] = [[], []]
    const stops = await Promise.all(heard.map((into) => store.subscribe('jobs:{t}', { message: (message) => into.push(message) })))
    await store.publish('jobs:{t}', 'one')
    await store.publish('elsewhere:{t}', 'not for us')
    await vi.waitFor(() => expect(heard).toEqual([['one'], ['one']]))
    await stops[0]!()
    await store.publish('jobs:{t}', 'two')
    await vi.waitFor(() => expect(heard[1]).toEqual(['one', 'two']))
    expect(heard[0]).toEqual(['one'])
    await stops[1]!()
  })
}

/** A batch of every operation answers each as its method would, in order, skipping what its condition rules out. */
export async function expectBatchAnswers(store: ProxyStore) {
  await store.set('written:{t}', 'paths', 60_000)
  const operations = [
    { op: 'get', key: 'written:{t}' },
    { op: 'get', key: 'missing:{t}' },
    { op: 'claim', key: 'reading:{t}', ttlMs: 60_000 },
    { op: 'claim', key: 'reading:{t}', ttlMs: 60_000 },
    { op: 'increment', key: 'calls:{t}', delta: 1, ttlMs: 60_000, if: 2 },
    { op: 'increment', key: 'calls:{t}', delta: 1, ttlMs: 60_000, if: 3 },
    { op: 'set', key: 'status:{t}', value: 'done', ttlMs: 60_000, unless: 1 },
    { op: 'set', key: 'skipped:{t}', value: 'never', ttlMs: 60_000, unless: 0 },
    { op: 'hold', key: 'owner:{t}', value: 'alice', ttlMs: 60_000 },
    { op: 'hold', key: 'owner:{t}', value: 'bob', ttlMs: 60_000 },
    { op: 'lease', key: 'lease:{t}', owner: 'a', ttlMs: 60_000 },
    { op: 'lease', key: 'lease:{t}', owner: 'b', ttlMs: 60_000 },
    { op: 'release', key: 'reading:{t}' },
    { op: 'publish', channel: 'jobs:{t}', message: 'hello' },
    { op: 'push', key: 'recent:{t}', value: 'x', max: 2, ttlMs: 60_000 },
    { op: 'push', key: 'recent:{t}', value: 'y', max: 2, ttlMs: 60_000 },
    { op: 'push', key: 'recent:{t}', value: 'z', max: 2, ttlMs: 60_000 },
    { op: 'list', key: 'recent:{t}' },
    { op: 'list', key: 'none:{t}' },
  ] as const satisfies readonly StoreOperation[]
  const answers = await together(store, operations)
  expect(answers).toEqual([
    ...['paths', undefined, true, false, 1, undefined, undefined, undefined, 'alice', 'alice', true, false, undefined, undefined],
    ...[undefined, undefined, undefined, ['y', 'z'], []],
  ])
  expect(await store.get('status:{t}')).toBe('done')
  expect(await store.get('skipped:{t}')).toBeUndefined()
  expect(await store.claim('reading:{t}', 60_000)).toBe(true)
  expect(await store.increment('calls:{t}', 0, 60_000)).toBe(1)

}

function describeBatch({ make }: StoreContract) {
  it('answers each operation as its method would, in order, skipping what its condition rules out', async () => {
    await expectBatchAnswers(await make())
  })

  it('is one atomic step: concurrent batches never interleave', async () => {
    const store = await make()
    // Each batch claims the key and, only if it did, counts: exactly one of them counts.
    const batches = Array.from({ length: 20 }, () =>
      together(store, [
        { op: 'claim', key: 'once:{t}', ttlMs: 60_000 },
        { op: 'increment', key: 'winners:{t}', delta: 1, ttlMs: 60_000, if: 0 },
      ]),
    )
    const answers = await Promise.all(batches)
    expect(answers.filter(([claimed]) => claimed)).toHaveLength(1)
    expect(await store.increment('winners:{t}', 0, 60_000)).toBe(1)
  })

  it('publishes within a batch to every subscriber', async () => {
    const store = await make()
    const heard: string[] = []
    const stop = await store.subscribe('jobs:{t}', { message: (message) => heard.push(message) })
    await together(store, [{ op: 'publish', channel: 'jobs:{t}', message: 'news' }])
    await together(store, [
      { op: 'set', key: 'status:{t}', value: 'x', ttlMs: 60_000 },
      { op: 'publish', channel: 'jobs:{t}', message: 'with a write' },
    ])
    await vi.waitFor(() => expect(heard).toEqual(['news', 'with a write']))
    await stop()
  })
}

function describeFailure(failed: () => Promise<ProxyStore>) {
  it('fails as StoreUnavailable through guardStore, and the proxy answers 503 store_unavailable, never a crash', async () => {
    const store = await failed()
    const guarded = guardStore(store, 1000)
    await expect(guarded.get('status:{t}')).rejects.toBeInstanceOf(StoreUnavailable)
    await expect(guarded.batch!([{ op: 'get', key: 'a:{t}' }, { op: 'claim', key: 'b:{t}', ttlMs: 1000 }])).rejects.toBeInstanceOf(StoreUnavailable)
    const proxy = testProxy(service, { store })
    const call = await proxy.handle(new Request(`${SITE}/api/tools/valuation/rent`, { method: 'POST', body: '{}', headers: { 'x-user': 'alice', 'content-type': 'application/json' } }))
    expect(call.status).toBe(503)
    expect(((await call.json()) as { error: { code: string } }).error.code).toBe('store_unavailable')
  }, 20_000)
}

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

/** The stand-in service: rent at once, report jobs (a job's status and file as `statusOf` says), every request counted. */
let received: Request[] = []
/** Which instance (`instanceOn`'s `name`) sent each read of a job to the service, in order. */
let readsBy: string[] = []
let statusOf: (jobId: string) => string = () => 'processing'
/** The service's ids of the jobs it created, oldest first. */
let created: string[] = []
const service: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  received.push(request)
  const url = new URL(request.url)
  if (url.pathname.endsWith('/valuation/rent')) return Response.json({ value: 1234, requestId: 'req_1' })
  if (request.method === 'POST') {
    const jobId = `job_${crypto.randomUUID()}`
    created.push(jobId)
    return Response.json({ jobId, status: 'pending', requestId: 'req_1' }, { status: 202 })
  }
  const jobId = decodeURIComponent(url.pathname.split('/').pop()!)
  const status = statusOf(jobId)
  // Every job's end names the same file: only its first reader may have it.
  return Response.json({ jobId, status, ...(status === 'completed' ? { report: `${SERVICE}/artifacts/shared.pdf` } : {}) })
}
const reads = () => received.filter((request) => request.method === 'GET').length

/**
 * `store`, noting when what it writes with a time to live ends: for each key, the earliest its
 * latest write can end (sent then) and the latest (answered then). A hold counts when it holds the
 * value written.
 */
function expiriesOf(store: ProxyStore): [ProxyStore, Map<string, { earliest: number; latest: number }>] {
  const expiries = new Map<string, { earliest: number; latest: number }>()
  const lasting = (operation: StoreOperation, answer: unknown, sentAt: number) => {
    if (operation.op !== 'set' && operation.op !== 'hold') return
    if (operation.op === 'hold' && answer !== operation.value) return
    expiries.set(operation.key, { earliest: sentAt + operation.ttlMs, latest: Date.now() + operation.ttlMs })
  }
  const watched: ProxyStore = {
    ...store,
    set: async (key, value, ttlMs) => {
      const sentAt = Date.now()
      await store.set(key, value, ttlMs)
      lasting({ op: 'set', key, value, ttlMs }, undefined, sentAt)
    },
    hold: async (key, value, ttlMs) => {
      const sentAt = Date.now()
      const answer = await store.hold(key, value, ttlMs)
      lasting({ op: 'hold', key, value, ttlMs }, answer, sentAt)
      return answer
    },
    batch: store.batch && (async (operations) => {
      const sentAt = Date.now()
      const answers = await store.batch!(operations)
      operations.forEach((operation, index) => lasting(operation, answers[index], sentAt))
      return answers
    }),
  }
  return [watched, expiries]
}

/** An instance of the proxy on `store`, named `name`: calls, report jobs, reads, streams and webhooks, as `user`. */
function instanceOn(store: ProxyStore, options: Partial<ToolsProxyOptions> = {}, name = '') {
  const sent: typeof fetch = (input, init) => {
    if ((init?.method ?? 'GET') === 'GET') readsBy.push(name)
    return service(input, init)
  }
  const proxy = testProxy(sent, { store, ...options })
  // A page's request stays referenced while its page may leave: undici's Request holds the controller
  // that passes the page's abort on only weakly otherwise, and a collection would lose it.
  const pagesOpen: Request[] = []
  const send = (user: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) => {
    const request = new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': user, ...init.headers } })
    if (init.signal) pagesOpen.push(request)
    return proxy.handle(request)
  }
  const json = { 'content-type': 'application/json' }
  return {
    call: (user: string) => send(user, '/valuation/rent', { method: 'POST', body: JSON.stringify({ propertyCategory: 'flat', totalArea: 50, city: 'Berlin' }), headers: json }),
    async start(user: string, headers: Record<string, string> = {}, objectId = 'obj_1') {
      const response = await send(user, '/valuation/report', { method: 'POST', body: JSON.stringify({ objectId }), headers: { ...json, ...headers } })
      expect(response.status).toBe(202)
      return ((await response.json()) as { jobId: string }).jobId
    },
    read: async (user: string, handle: string) => (await send(user, `/valuation/report/jobs/${encodeURIComponent(handle)}`)).json() as Promise<{ status: string; jobId: string; report?: string | null }>,
    listen: (user: string, handle: string, signal: AbortSignal) => send(user, `/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`, { signal }),
    async hook(payload: unknown, id = crypto.randomUUID()) {
      const body = JSON.stringify(payload)
      const timestamp = Math.floor(Date.now() / 1000)
      const signature = await webhookSignature(await webhookKey(WEBHOOK_SECRET), id, timestamp, body)
      const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature }
      return proxy.handle(new Request(`${SITE}/api/tools/webhooks`, { method: 'POST', body, headers }))
    },
  }
}

function describeInstances({ twoInstances }: StoreContract) {
  const streams: AbortController[] = []
  afterEach(() => {
    for (const stream of streams.splice(0)) stream.abort()
    received = []
    readsBy = []
    created = []
    statusOf = () => 'processing'
  })
  const pair = async (options: Partial<ToolsProxyOptions> = {}) => (await twoInstances()).map((store) => instanceOn(store, options)) as [ReturnType<typeof instanceOn>, ReturnType<typeof instanceOn>]

  it('keep one spend cap per person: calls on either instance count against it once', async () => {
    const [a, b] = await pair({ limits: { calls: 3, windowMs: LONG_WINDOW } })
    const answers = await Promise.all(Array.from({ length: 8 }, (_, n) => (n % 2 ? a : b).call('alice')))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3)
    expect(answers.filter((answer) => answer.status === 402)).toHaveLength(5)
    expect(received).toHaveLength(3)
    expect((await a.call('bob')).status).toBe(200)
  })

  it('read a job from the service once for readers on both instances', async () => {
    const [a, b] = await pair()
    const handle = await a.start('alice')
    received = []
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => (n % 2 ? a : b).read('alice', handle)))
    expect(answers.every((answer) => answer.status === 'processing')).toBe(true)
    expect(reads()).toBe(1)
  })

  it('give a file to its first owner only, whichever instance the next reader is on', async () => {
    const [a, b] = await pair()
    statusOf = () => 'completed'
    const [alices, bobs] = [await a.start('alice'), await b.start('bob')]
    expect((await a.read('alice', alices)).report).toMatch(/^\/api\/tools\/artifacts\//)
    expect((await b.read('bob', bobs)).report).toBeNull()
  })

  it('keep a file’s owner at least as long as any record of a job’s request naming the file', async () => {
    const [one, other] = await twoInstances()
    const [watched, expiries] = expiriesOf(other)
    const [a, b] = [instanceOn(one), instanceOn(watched)]
    statusOf = () => 'completed'
    const alices = await a.start('alice')
    expect((await a.read('alice', alices)).report).toMatch(/^\/api\/tools\/artifacts\//)
    // Later, bob's request carries alice's file's address: a record of it, naming the file, is written.
    const bobs = await b.start('bob', {}, `${SERVICE}/artifacts/shared.pdf`)
    const record = [...expiries].find(([key]) => key.includes('written:'))
    const claim = [...expiries].find(([key]) => key.includes('owner:') && key.endsWith('/artifacts/shared.pdf'))
    expect(record).toBeDefined()
    expect(claim).toBeDefined()
    expect(claim![1].earliest).toBeGreaterThanOrEqual(record![1].latest)
    expect((await b.read('bob', bobs)).report).toBeNull()
  })

  it('take a webhook once, and tell a stream held by the other instance', async () => {
    const [a, b] = await pair({ webhooks: { secret: WEBHOOK_SECRET } })
    const handle = await a.start('alice')
    const controller = new AbortController()
    streams.push(controller)
    const stream = reader(await b.listen('alice', handle, controller.signal))
    await stream.created()
    const id = crypto.randomUUID()
    const serviceJobId = created[0]!
    expect((await a.hook({ data: { jobId: serviceJobId, status: 'processing', progress: 50 } }, id)).status).toBe(204)
    expect(await stream.next()).toMatchObject({ jobId: handle, body: { status: 'processing' } })
    // The same id again, on the other instance (a sender's retry), changes nothing.
    expect((await b.hook({ data: { jobId: serviceJobId, status: 'failed' } }, id)).status).toBe(204)
    expect((await a.hook({ data: { jobId: serviceJobId, status: 'completed' } })).status).toBe(204)
    expect(await stream.next()).toMatchObject({ jobId: handle, body: { status: 'completed' } })
    expect(reads()).toBe(0)
  })

  it('keep one watcher per job: pages on both, one instance reads the service at a time; when it stops, the other takes over', () => oneWatcher(twoInstances))

  it('cost a call one trip to the store, and a job’s creation two, its key and page’s news with them', async () => {
    const [store] = await twoInstances()
    const work = storeWork()
    const instance = instanceOn(work.watched(store), { limits: { calls: 10, windowMs: LONG_WINDOW } })
    const tripsOf = async (request: () => Promise<unknown>) => {
      const before = work.trips()
      await request()
      return work.trips() - before
    }
    expect(await tripsOf(async () => expect((await instance.call('alice')).status).toBe(200))).toBe(1)
    expect(await tripsOf(() => instance.start('alice'))).toBe(2)
    expect(await tripsOf(() => instance.start('alice', { 'idempotency-key': 'key-1', 'x-tools-page': 'tab-1' }))).toBe(2)
  })
}

/**
 * Two instances, each with pages streaming one running job: for longer than a lease lasts, only
 * one of them reads the service; its pages gone and its lease lapsed (taken out through the store,
 * as the store's own clock would: on Redis or Durable Objects that clock is not the test's), the
 * other takes over, and its pages hear the end. The proxy's time is fake; the test moves it 50 ms
 * at a time, each step once every store operation begun has answered.
 */
async function oneWatcher(twoInstances: StoreContract['twoInstances']) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
  const pages = { a: [new AbortController(), new AbortController()], b: [new AbortController(), new AbortController()] }
  try {
    const stores = await twoInstances()
    const work = storeWork()
    const [a, b] = [instanceOn(work.watched(stores[0]), {}, 'a'), instanceOn(work.watched(stores[1]), {}, 'b')]
    const handle = await a.start('alice')
    const heard = { a: [] as ReturnType<typeof reader>[], b: [] as ReturnType<typeof reader>[] }
    for (const name of ['a', 'b'] as const) {
      for (const page of pages[name]) {
        const stream = reader(await (name === 'a' ? a : b).listen('alice', handle, page.signal))
        await stream.created()
        heard[name].push(stream)
      }
    }
    await work.advance(15_000)
    const holder = readsBy[0] as 'a' | 'b'
    const other = holder === 'a' ? 'b' : 'a'
    // A read about every second, all the holder's, for longer than its lease lasts unrenewed.
    expect(readsBy.length).toBeGreaterThanOrEqual(5)
    expect(new Set(readsBy)).toEqual(new Set([holder]))
    // The holder stops: its pages leave, its watcher with them; its lease lapses.
    for (const page of pages[holder]) page.abort()
    readsBy = []
    await work.advance(5_000)
    // Nobody reads while its lease holds.
    expect(readsBy).toEqual([])
    await stores[0].release(keys.lease({ toolPath: '/valuation/report', jobId: created[0]! }))
    await work.advance(10_000)
    expect(readsBy.length).toBeGreaterThanOrEqual(1)
    expect(new Set(readsBy)).toEqual(new Set([other]))
    statusOf = () => 'completed'
    await work.advance(8_000)
    for (const stream of heard[other]) {
      let event
      while ((event = await stream.next()) !== 'end' && event.body.status !== 'completed');
      expect(event).toMatchObject({ body: { status: 'completed' } })
    }
  } finally {
    for (const page of [...pages.a, ...pages.b]) page.abort()
    vi.useRealTimers()
  }
}

/**
 * Stores whose operations are counted while in flight, and their trips (one begun while none is in
 * flight starts one; those begun alongside ride it); `advance(ms)` moves fake time 50 ms at a time,
 * waiting after each step until none is.
 */
function storeWork() {
  let inFlight = 0
  let trips = 0
  const counted =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      if (inFlight++ === 0) trips++
      return operation(...args).finally(() => inFlight--)
    }
  const settled = async () => {
    // Real I/O (Redis, workerd) answers on its own clock: wait for it, a turn of the event loop at a time.
    for (let quiet = 0; quiet < 5; ) {
      await new Promise((resolve) => setImmediate(resolve))
      quiet = inFlight === 0 ? quiet + 1 : 0
    }
  }
  return {
    trips: () => trips,
    watched: (store: ProxyStore): ProxyStore => {
      const methods = Object.fromEntries(
        Object.entries(store).map(([name, method]) => [name, typeof method === 'function' ? counted((method as (...args: unknown[]) => Promise<unknown>).bind(store)) : method]),
      )
      return methods as unknown as ProxyStore
    },
    async advance(ms: number) {
      for (let elapsed = 0; elapsed < ms; elapsed += 50) {
        await vi.advanceTimersByTimeAsync(50)
        await settled()
      }
    },
  }
}
