// @vitest-environment node
// The proxy's shared state on Cloudflare: two Workers, each with its own module memory, sharing
// one Durable Object namespace (ToolsProxyState, SQLite-backed) in workerd through Miniflare, in
// front of the simulated service on its own port. What one Worker's isolate knows, the other's
// does not: every promise below holds only through the objects.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { exampleInput, MOCK_KEYS } from '../src/mock/index.js'
import { keys, storeIdOf } from '../src/server/keys.js'
import { hashTagOf, type StoreOperation } from '../src/server/stores/store.js'
import { PROXY_ERROR_CODES } from '../src/tools/index.js'
import { listenMockService } from './support/http.js'
import { describeStoreContract } from './support/storeContract.js'
import { storeOverProbe } from './support/storeProbe.js'
import { buildProxyWorker, startWorkers } from './support/workerd.js'

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters'
const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const CALLS_CAP = 3
let workers: Awaited<ReturnType<typeof startWorkers>>
let mock: Awaited<ReturnType<typeof listenMockService>>
/** The service's webhooks, held here until a test sends them on. */
const deliveries: Request[] = []
const url: Record<'one' | 'two' | 'plain' | 'broken', string> = { one: '', two: '', plain: '', broken: '' }

beforeAll(async () => {
  const script = await buildProxyWorker('tools-proxy-cloudflare')
  mock = await listenMockService({
    jobDurationMs: 200,
    webhooks: { url: 'https://partner.test/api/tools/webhooks', secret: WEBHOOK_SECRET, send: (request) => (deliveries.push(request), new Response(null, { status: 204 })) },
  })
  const bindings = { TOOLS_BASE_URL: mock.baseUrl, TOOLS_API_KEY: MOCK_KEYS.demo, TOOLS_PROXY_SECRET: SECRET, MAX_UPLOAD_BYTES: String(1024 * 1024), CALLS_CAP: String(CALLS_CAP) }
  // RestartableState: ToolsProxyState, with a way to drop its sockets as a restart does.
  const className = 'RestartableState'
  workers = await startWorkers(script, bindings, [
    { name: 'one', className, bindings: { WEBHOOK_SECRET } },
    // Another Worker (another isolate, its own module memory) bound to the same objects.
    { name: 'two', className, bindings: { WEBHOOK_SECRET } },
    // One that takes no webhooks: its job reads go to the service.
    { name: 'plain', className },
    { name: 'broken', className: 'BrokenState' },
  ])
  Object.assign(url, workers.urls)
}, 120_000)
afterAll(async () => {
  await workers?.dispose()
  await mock?.close()
})

const call = (worker: string, user: string) =>
  fetch(`${worker}/api/tools/valuation/rent`, { method: 'POST', body: JSON.stringify(exampleInput('valuation/rent')), headers: { 'content-type': 'application/json', 'x-user': user } })
const objectRequests = async (worker: string) => (await (await fetch(`${worker}/object-requests`)).json()) as number

describe('two Workers sharing one Durable Object namespace', () => {
  it('keep one spend cap for a person, whichever Worker each call lands on', async () => {
    const bills = mock.service.bills()
    const answers = await Promise.all(Array.from({ length: 8 }, (_, index) => call(index % 2 ? url.two : url.one, 'carol')))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(CALLS_CAP)
    expect(mock.service.bills() - bills).toBe(CALLS_CAP)
    const refused = answers.find((answer) => answer.status !== 200)!
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.userLimit)
    // Another person's cap is their own.
    expect((await call(url.two, 'dave')).status).toBe(200)
  })

  it('give a job one watcher and a file one owner: a lease and a hold taken by one are refused to the other', async () => {
    const [one, two] = [storeOverProbe(url.one), storeOverProbe(url.two)]
    expect(await one.lease('lease:{job_w}', 'isolate-1', 60_000)).toBe(true)
    expect(await two.lease('lease:{job_w}', 'isolate-2', 60_000)).toBe(false)
    expect(await one.lease('lease:{job_w}', 'isolate-1', 60_000)).toBe(true)
    expect(await two.hold('owner:{file_f}', 'alice', 60_000)).toBe('alice')
    expect(await one.hold('owner:{file_f}', 'bob', 60_000)).toBe('alice')
    expect(await one.claim('webhook:{msg_1}', 60_000)).toBe(true)
    expect(await two.claim('webhook:{msg_1}', 60_000)).toBe(false)
  })

  /** Starts a report job on `worker` as `user`: its handle, and the service's webhooks about it (held here, the job ended). */
  async function startJob(worker: string, user: string) {
    deliveries.length = 0
    const created = await fetch(`${worker}/api/tools/valuation/report`, {
      method: 'POST',
      body: JSON.stringify(exampleInput('valuation/report')),
      headers: { 'content-type': 'application/json', 'x-user': user },
    })
    expect(created.status).toBe(202)
    const { jobId: handle } = (await created.json()) as { jobId: string }
    await vi.waitFor(() => expect(deliveries.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 })
    const hooks = deliveries.splice(0)
    return { handle, send: async (to: string) => {
      for (const hook of hooks) expect((await fetch(`${to}/api/tools/webhooks`, { method: 'POST', body: await hook.text(), headers: hook.headers })).status).toBeLessThan(300)
    } }
  }

  /** A page's event stream of the job on `worker`; `until` reads it until `seen` holds of what came. */
  async function openStream(worker: string, user: string, handle: string) {
    const stream = await fetch(`${worker}/api/tools/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`, { headers: { 'x-user': user } })
    expect(stream.status).toBe(200)
    const events = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
    let text = ''
    const until = async (seen: (text: string) => boolean) => {
      while (!seen(text)) {
        const { value, done } = await events.read()
        if (done) break
        text += value
      }
      return text
    }
    return { until, close: () => events.cancel() }
  }

  it('carry a webhook taken by one Worker to a page’s stream held by the other, reading nothing from the service', async () => {
    const polls = mock.service.log.filter((entry) => entry.kind === 'poll').length
    // Twice: the second stream on the isolate comes after the first has ended.
    for (const user of ['erin', 'erin']) {
      const job = await startJob(url.one, user)
      const stream = await openStream(url.two, user, job.handle)
      // Its first event, the job's present state, has gone out: the stream listens.
      expect(await stream.until((text) => text.includes('"status":"pending"'))).toContain('pending')
      await job.send(url.one)
      expect(await stream.until((text) => text.includes('"status":"completed"'))).toContain('"status":"completed"')
      await stream.close()
    }
    expect(mock.service.log.filter((entry) => entry.kind === 'poll').length).toBe(polls)
  }, 30_000)

  it('tell a page’s stream of its job after another stream of the job on the same Worker, which opened the subscription, has closed', async () => {
    const job = await startJob(url.one, 'ivan')
    const first = await openStream(url.two, 'ivan', job.handle)
    await first.until((text) => text.includes('"status":"pending"'))
    const second = await openStream(url.two, 'ivan', job.handle)
    await second.until((text) => text.includes('"status":"pending"'))
    await first.close()
    await job.send(url.one)
    expect(await second.until((text) => text.includes('"status":"completed"'))).toContain('"status":"completed"')
    await second.close()
  }, 30_000)

  it('open a subscription again when its object drops it, and say messages may have been missed meanwhile', async () => {
    const heard: string[] = []
    let missed = 0
    const stop = await storeOverProbe(url.one).subscribe('news:{restart}', { message: (message) => heard.push(message), missed: () => missed++ })
    await storeOverProbe(url.two).publish('news:{restart}', 'before')
    await vi.waitFor(() => expect(heard).toEqual(['before']))
    expect((await fetch(`${url.two}/object/restart?tag=restart`)).status).toBe(204)
    await vi.waitFor(() => expect(missed).toBe(1))
    await storeOverProbe(url.two).publish('news:{restart}', 'after')
    await vi.waitFor(() => expect(heard).toEqual(['before', 'after']))
    await stop()
  })

  it('let an entry lapse when its time is up, and delete it on the object’s alarm, not a timer', async () => {
    const store = storeOverProbe(url.one)
    const storage = async (alarm = false) => (await (await fetch(`${url.two}/object/storage?tag=lapse${alarm ? '&alarm' : ''}`)).json()) as { rows: number; alarm: number | null }
    expect(await store.claim('c:{lapse}', 1)).toBe(true)
    expect(await store.set('kept:{lapse}', 'yes', 3_600_000)).toBeUndefined()
    // Its alarm is set for the first expiry (and a little after, for the ones close to it).
    const { rows, alarm } = await storage()
    expect(rows).toBe(2)
    expect(alarm).toBeGreaterThan(Date.now() - 1000)
    expect(alarm).toBeLessThan(Date.now() + 60_000)
    // A millisecond later the claim is free again; the row stays until the alarm.
    await vi.waitFor(async () => expect(await store.claim('c:{lapse}', 1)).toBe(true))
    await vi.waitFor(async () => expect(await store.get('c:{lapse}')).toBeUndefined())
    await vi.waitFor(async () => expect(await storage(true)).toMatchObject({ rows: 1 }))
    // The next alarm is for what is left: an hour on.
    expect((await storage()).alarm).toBeGreaterThan(Date.now() + 3_000_000)
  })

  it('answer 503 store_unavailable when the object fails, and go on serving', async () => {
    const answer = await call(url.broken, 'frank')
    expect(answer.status).toBe(503)
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.storeUnavailable)
    expect((await call(url.broken, 'frank')).status).toBe(503)
  })

  it('answer a batch as memoryStore does, its conditions kept, and refuse one that spans objects', async () => {
    const { memoryStore } = await vi.importActual<typeof import('../src/server/stores/memoryStore.js')>('../src/server/stores/memoryStore.js')
    const batch: StoreOperation[] = [
      { op: 'claim', key: 'c:{p1}', ttlMs: 60_000 },
      { op: 'set', key: 'v:{p1}', value: 'x', ttlMs: 60_000, if: 0 },
      { op: 'claim', key: 'c:{p1}', ttlMs: 60_000 },
      { op: 'set', key: 'w:{p1}', value: 'y', ttlMs: 60_000, if: 2 },
      { op: 'get', key: 'v:{p1}' },
      { op: 'get', key: 'w:{p1}', unless: 0 },
      { op: 'increment', key: 'n:{p1}', delta: 2, ttlMs: 60_000, unless: 3 },
      { op: 'hold', key: 'h:{p1}', value: 'first', ttlMs: 60_000, if: 4 },
      { op: 'push', key: 'l:{p1}', value: 'a', max: 2, ttlMs: 60_000 },
      { op: 'push', key: 'l:{p1}', value: 'b', max: 2, ttlMs: 60_000 },
      { op: 'push', key: 'l:{p1}', value: 'c', max: 2, ttlMs: 60_000 },
      { op: 'list', key: 'l:{p1}' },
      { op: 'lease', key: 'lease:{p1}', owner: 'me', ttlMs: 60_000, if: 6 },
      { op: 'publish', channel: 'news:{p1}', message: 'hi', if: 12 },
    ]
    const reference = memoryStore()
    expect(await storeOverProbe(url.one).batch!(batch)).toEqual(await reference.batch!(batch))
    // Again, from the other Worker: the object remembers what the first batch did.
    expect(await storeOverProbe(url.two).batch!(batch)).toEqual(await reference.batch!(batch))
    await expect(storeOverProbe(url.one).batch!([{ op: 'get', key: 'a:{p1}' }, { op: 'get', key: 'a:{p2}' }])).rejects.toThrow(/2 hash tags/)
  })

  it('give 60 people whose ids start with "}" 60 objects of their own, none another’s', async () => {
    const users = Array.from({ length: 60 }, (_, index) => `}spread-${index}`)
    for (const user of users) expect((await call(url.one, user)).status).toBe(200)
    const tags = users.map((user) => hashTagOf(keys.calls(storeIdOf(user), 0)))
    expect(new Set(tags).size).toBe(60)
    // Each object holds its one person's counters (their calls, and their rate while its second lasts), no one else's.
    const rows = await Promise.all(tags.map(async (tag) => ((await (await fetch(`${url.two}/object/storage?tag=${encodeURIComponent(tag)}`)).json()) as { rows: number }).rows))
    for (const count of rows) expect(count === 1 || count === 2).toBe(true)
  }, 60_000)

  it('cost one object request per call, and a few per job (its person’s object and its own)', async () => {
    const count = async (run: () => Promise<unknown>) => {
      const all = async () => (await Promise.all([url.one, url.two, url.plain].map(objectRequests))).reduce((sum, each) => sum + each)
      const before = await all()
      await run()
      return (await all()) - before
    }
    const perCall = await count(async () => expect((await call(url.one, 'gina')).status).toBe(200))
    let handle = ''
    const perCreation = await count(async () => (handle = (await startJob(url.one, 'hana')).handle))
    const read = () => fetch(`${url.two}/api/tools/valuation/report/jobs/${handle}`, { headers: { 'x-user': 'hana' } })
    const perRead = await count(async () => expect((await read()).status).toBe(200))
    // Without webhooks, a job read goes to the service once the status kept is a second old: read until one does.
    const polls = () => mock.service.log.filter((entry) => entry.kind === 'poll').length
    const plainJob = await startJob(url.plain, 'hana')
    let perServiceRead = 0
    for (let tries = 0, before = polls(); polls() === before && tries < 1000; tries++) {
      perServiceRead = await count(async () => expect((await fetch(`${url.plain}/api/tools/valuation/report/jobs/${plainJob.handle}`, { headers: { 'x-user': 'hana' } })).status).toBe(200))
    }
    const perStream = await count(async () => {
      const stream = await openStream(url.two, 'hana', handle)
      await stream.until((text) => text.includes('"status"'))
      await stream.close()
    })
    console.info(`object requests: a call ${perCall}, a job's creation ${perCreation}, a job read ${perRead} (${perServiceRead} reaching the service), a stream opened ${perStream}`)
    // A call touches its person's object alone; the rest as docs/cloudflare.md counts them.
    expect(perCall).toBe(1)
    expect(perCreation).toBeLessThanOrEqual(3)
    expect(perRead).toBeLessThanOrEqual(2)
    expect(perServiceRead).toBeGreaterThan(0)
    expect(perStream).toBeLessThanOrEqual(5)
  })
})

// The store contract every store is held to (test/support/storeContract.ts), on durableObjectStore
// as it runs in workerd: each store here is a Worker's, reached over HTTP (storeProbe.ts), so the
// store's client side (stubs, WebSockets) runs in the runtime it is for while the suite, written
// once for every store, runs in Node. Two instances are two Workers, two isolates.
let run = 0
describeStoreContract('durableObjectStore in workerd', {
  make: async () => storeOverProbe(url.one, `contract-${++run}:`),
  twoInstances: async () => {
    const prefix = `contract-${++run}:`
    return [storeOverProbe(url.one, prefix), storeOverProbe(url.two, prefix)]
  },
  failed: async () => storeOverProbe(url.broken, 'contract-gone:'),
})
