// @vitest-environment node
// Live updates through the proxy: the service's webhooks, verified and deduplicated; one event
// stream per page; one watcher per job for every page and instance (a lease in the store); and
// instances hearing each other over a real Redis's publish/subscribe.
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { webhookKey, webhookSignature, webhookSigned } from '../src/client/standardWebhooks.js'
import { memoryStore, redisStore, type ProxyEvent, type ProxyStore, type ToolsProxyOptions } from '../src/server/index.js'
import { createToolsClient, PROXY_ERROR_CODES, type ToolId } from '../src/tools/index.js'
import { reader } from './support/eventReader.js'
import { listen as serve } from './support/http.js'
import { SERVICE, SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'
import { webhookVerifier } from '../src/server/webhooks/webhookVerify.js'

// The spec's own test vector (standardwebhooks.com).
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
}
const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const OLD_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'

/** The stand-in service: every request recorded; a job's status is whatever `statusOf` says now. */
let received: Request[] = []
let statusOf: (jobId: string) => string = () => 'processing'
let jobs = 0
const service: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  received.push(request)
  if (request.method === 'POST') return Response.json({ jobId: `job_${++jobs}`, status: 'pending', requestId: 'req_1' }, { status: 202 })
  const jobId = new URL(request.url).pathname.split('/').pop()!
  const status = statusOf(jobId)
  return Response.json({ jobId, status, ...(status === 'completed' ? { report: `${SERVICE}/artifacts/${jobId}.pdf` } : {}) })
}
const reads = () => received.filter((request) => request.method === 'GET').length
/** Every stream a test opened: cut after it, so no watcher of one test reads during the next. */
const opened = new Set<AbortController>()
afterEach(() => {
  for (const controller of opened) controller.abort()
  opened.clear()
  received = []
  statusOf = () => 'processing'
  vi.useRealTimers()
})

function proxyWith(options: Partial<ToolsProxyOptions> = {}) {
  const proxy = testProxy(service, options)
  const send = (user: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': user, ...init.headers } }))
  /** Starts a report job as `user`: its handle and the stream the answer names. */
  const start = async (user = 'alice', page?: string) => {
    const response = await send(user, '/valuation/report', {
      method: 'POST',
      body: JSON.stringify({ propertyCategory: 'flat', totalArea: 50 }),
      headers: { 'content-type': 'application/json', origin: SITE, ...(page && { 'x-tools-page': page }) },
    })
    expect(response.status).toBe(202)
    const { jobId } = (await response.json()) as { jobId: string }
    return { handle: jobId, jobId: `job_${jobs}`, events: response.headers.get('x-tools-events') }
  }
  const listen = (user: string, handles: string[], lastEventId?: string, page?: string) => {
    const controller = new AbortController()
    opened.add(controller)
    const query = handles.map((handle) => `job=${encodeURIComponent(`valuation/report:${handle}`)}`).join('&')
    const headers = { ...(lastEventId && { 'last-event-id': lastEventId }), ...(page && { 'x-tools-page': page }) }
    const response = send(user, `/events?${query}`, { signal: controller.signal, headers })
    return { response, cut: () => controller.abort() }
  }
  /** A webhook as the service sends one, signed with `secret` (or as `sign` says). */
  const hook = async (payload: unknown, { id = crypto.randomUUID(), at = Date.now(), secret = WEBHOOK_SECRET, signature }: { id?: string; at?: number; secret?: string; signature?: string } = {}) => {
    const body = JSON.stringify(payload)
    const timestamp = Math.floor(at / 1000)
    const headers = {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signature ?? (await webhookSignature(await webhookKey(secret), id, timestamp, body)),
    }
    return proxy.handle(new Request(`${SITE}/api/tools/webhooks`, { method: 'POST', body, headers }))
  }
  return { proxy, send, start, listen, hook }
}

describe('webhook signatures (Standard Webhooks)', () => {
  it('match the spec’s test vector', async () => {
    const key = await webhookKey(VECTOR.secret)
    expect(await webhookSignature(key, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature)
    expect(await webhookSigned([key], VECTOR.signature, VECTOR.id, String(VECTOR.timestamp), VECTOR.body)).toBe(true)
    expect(await webhookSigned([key], VECTOR.signature, VECTOR.id, String(VECTOR.timestamp), `${VECTOR.body} `)).toBe(false)
  })

  it('are what the standardwebhooks package signs and verifies, both ways', async () => {
    const reference = new Webhook(WEBHOOK_SECRET)
    const key = await webhookKey(WEBHOOK_SECRET)
    for (let i = 0; i < 20; i++) {
      const id = `msg_${crypto.randomUUID()}`
      const at = new Date(Math.floor(Date.now() / 1000) * 1000 - i * 1000)
      const body = JSON.stringify({ data: { jobId: `job_${i}`, status: 'completed', note: 'é ✓ '.repeat(i) } })
      const signature = reference.sign(id, at, body)
      expect(await webhookSignature(key, id, at.getTime() / 1000, body)).toBe(signature)
      expect(await webhookSigned([key], `v1,AAAA ${signature}`, id, String(at.getTime() / 1000), body)).toBe(true)
      const headers = { 'webhook-id': id, 'webhook-timestamp': String(at.getTime() / 1000), 'webhook-signature': await webhookSignature(key, id, at.getTime() / 1000, body) }
      expect(reference.verify(body, headers)).toEqual(JSON.parse(body))
    }
  })

  it('are checked alike by the proxy with Node’s crypto and with Web Crypto (every other runtime)', async () => {
    const bytes = new TextEncoder().encode(VECTOR.body)
    const signature = VECTOR.signature.slice(3)
    for (const verify of [webhookVerifier([VECTOR.secret]), webhookVerifier([OLD_SECRET, VECTOR.secret], null)]) {
      expect(await verify(['A'.repeat(43) + '=', signature], VECTOR.id, String(VECTOR.timestamp), bytes)).toBe(true)
      expect(await verify([signature], VECTOR.id, String(VECTOR.timestamp + 1), bytes)).toBe(false)
      expect(await verify([signature], VECTOR.id, String(VECTOR.timestamp), new TextEncoder().encode(`${VECTOR.body} `))).toBe(false)
    }
  })

  it('refuse a secret that is not one, when the proxy is made', () => {
    expect(() => proxyWith({ webhooks: { secret: 'whsec_not base64!' } })).toThrow(TypeError)
    expect(() => proxyWith({ webhooks: { secret: [] } })).toThrow(TypeError)
  })
})

describe('the webhook receiver', () => {
  it('takes a signed webhook: the job’s read answers from it, with no read of the service', async () => {
    const { start, send, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const { handle, jobId } = await start()
    const response = await hook({ type: 'job.completed', data: { jobId, status: 'completed', report: `${SERVICE}/artifacts/r.pdf` } })
    expect(response.status).toBe(204)
    const read = await send('alice', `/valuation/report/jobs/${encodeURIComponent(handle)}`)
    const body = (await read.json()) as { status: string; report: string; jobId: string }
    expect(body.status).toBe('completed')
    expect(body.jobId).toBe(handle)
    expect(body.report).toMatch(/^\/api\/tools\/artifacts\//)
    expect(reads()).toBe(0)
  })

  it('refuses a bad, stale or unsigned webhook with 401 and changes nothing', async () => {
    const { start, send, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const { handle, jobId } = await start()
    const payload = { data: { jobId, status: 'failed' } }
    const refusals = [
      await hook(payload, { secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }),
      await hook(payload, { at: Date.now() - 6 * 60 * 1000 }),
      await hook(payload, { at: Date.now() + 6 * 60 * 1000 }),
      await hook(payload, { signature: 'v1,' }),
      await hook(payload, { signature: 'v2,abc' }),
    ]
    for (const refusal of refusals) {
      expect(refusal.status).toBe(401)
      expect(((await refusal.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.webhookRefused)
    }
    const unsigned = await send('anyone', '/webhooks', { method: 'POST', body: JSON.stringify(payload) })
    expect(unsigned.status).toBe(401)
    // The job is as its creation said, not as the refused webhooks said.
    const read = await send('alice', `/valuation/report/jobs/${encodeURIComponent(handle)}`)
    expect(((await read.json()) as { status: string }).status).toBe('pending')
  })

  it('reads each webhook id once: a resent id, even with another body, changes nothing', async () => {
    const { start, send, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const { handle, jobId } = await start()
    expect((await hook({ data: { jobId, status: 'processing', progress: 10 } }, { id: 'msg_1' })).status).toBe(204)
    expect((await hook({ data: { jobId, status: 'failed' } }, { id: 'msg_1' })).status).toBe(204)
    const read = await send('alice', `/valuation/report/jobs/${encodeURIComponent(handle)}`)
    expect(await read.json()).toMatchObject({ status: 'processing', progress: 10 })
  })

  it('accepts every secret of a rotation, and any one matching signature of several', async () => {
    const { start, send, hook } = proxyWith({ webhooks: { secret: [WEBHOOK_SECRET, OLD_SECRET] } })
    const first = await start()
    const second = await start()
    expect((await hook({ data: { jobId: first.jobId, status: 'processing', progress: 50 } }, { secret: OLD_SECRET })).status).toBe(204)
    const id = 'msg_two'
    const at = Math.floor(Date.now() / 1000)
    const body = { data: { jobId: second.jobId, status: 'completed' } }
    const right = await webhookSignature(await webhookKey(WEBHOOK_SECRET), id, at, JSON.stringify(body))
    expect((await hook(body, { id, at: at * 1000, signature: `v1,${btoa('x'.repeat(32))} ${right}` })).status).toBe(204)
    for (const [{ handle }, status] of [[first, 'processing'], [second, 'completed']] as const) {
      const read = await send('alice', `/valuation/report/jobs/${encodeURIComponent(handle)}`)
      expect(((await read.json()) as { status: string }).status).toBe(status)
    }
  })

  it('reads other payload shapes through `webhooks.read`, and ignores events about no job it made', async () => {
    const { start, send, hook } = proxyWith({
      webhooks: { secret: WEBHOOK_SECRET, read: (body) => {
        const event = body as { object?: { id: string; state: string } }
        return event.object ? { jobId: event.object.id, status: event.object.state, body: { jobId: event.object.id, status: event.object.state } } : null
      } },
    })
    const { handle, jobId } = await start()
    expect((await hook({ kind: 'ping' })).status).toBe(204)
    expect((await hook({ object: { id: 'job_of_another_app', state: 'completed' } })).status).toBe(204)
    expect((await hook({ object: { id: jobId, state: 'completed' } })).status).toBe(204)
    const read = await send('alice', `/valuation/report/jobs/${encodeURIComponent(handle)}`)
    expect(((await read.json()) as { status: string }).status).toBe('completed')
    expect(reads()).toBe(0)
  })

  it('keeps a webhook that comes before its job’s creation is answered, for the creation to find', async () => {
    const { start, send, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    // The service may tell of a job before its answer to the POST reaches the proxy.
    expect((await hook({ data: { jobId: `job_${jobs + 1}`, status: 'processing', progress: 20 } })).status).toBe(204)
    const { handle } = await start()
    const read = await send('alice', `/valuation/report/jobs/${encodeURIComponent(handle)}`)
    expect(await read.json()).toMatchObject({ status: 'processing', progress: 20, jobId: handle })
    expect(reads()).toBe(0)
  })

  it('is not there without a secret, and caps what it reads', async () => {
    expect((await proxyWith().hook({ data: { jobId: 'job_1', status: 'completed' } })).status).toBe(404)
    const { hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET, maxBytes: 1024 } })
    expect((await hook({ data: { jobId: 'job_1', status: 'completed', pad: 'x'.repeat(4096) } })).status).toBe(413)
  })
})

describe('the event stream', () => {
  it('is named by the job’s answers, and carries a webhook’s end to the page as a read would answer', async () => {
    const { start, listen, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const { handle, jobId, events } = await start()
    expect(events).toBe('/api/tools/events')
    const { response } = listen('alice', [handle])
    const opened = await response
    expect(opened.status).toBe(200)
    expect(opened.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const stream = reader(opened)
    // The job's present state comes first: its creation's answer, as the proxy keeps it.
    expect(await stream.next()).toMatchObject({ event: 'job', tool: 'valuation/report', jobId: handle, status: 200, body: { status: 'pending' } })
    await hook({ data: { jobId, status: 'completed', report: `${SERVICE}/artifacts/r.pdf` } })
    const event = await stream.next()
    expect(event).toMatchObject({ event: 'job', tool: 'valuation/report', jobId: handle, status: 200, body: { status: 'completed' } })
    expect(event !== 'end' && event.body.report).toMatch(/^\/api\/tools\/artifacts\//)
    // Every job has ended: the stream ends.
    expect(await stream.next()).toBe('end')
  })

  it('gives a stranger nothing: another user’s handle, an unknown tool, too many jobs or streams', async () => {
    const { start, listen, send } = proxyWith()
    const { handle } = await start('alice')
    // A job the user may not read: the refusal a read of it gets, once (no id: there is nothing to resume).
    const jobNotFound = { status: 404, body: { error: { code: PROXY_ERROR_CODES.jobNotFound } } }
    const strangers = reader(await listen('mallory', [handle]).response)
    expect(await strangers.next()).toMatchObject({ id: undefined, tool: 'valuation/report', jobId: handle, ...jobNotFound })
    const unknown = reader(await send('mallory', `/events?job=${encodeURIComponent(`nope:${handle}`)}`))
    expect(await unknown.next()).toMatchObject({ tool: 'nope', jobId: handle, ...jobNotFound })
    expect(reads()).toBe(0)
    expect((await send('mallory', '/events')).status).toBe(400)
    expect((await listen('alice', Array.from({ length: 51 }, () => handle)).response).status).toBe(400)
    expect((await send('nobody-signed-in', '/events', { headers: { 'x-user': '' } })).status).toBe(401)
    const open = await Promise.all(Array.from({ length: 16 }, () => listen('alice', [handle])))
    expect((await Promise.all(open.map((each) => each.response))).every((response) => response.status === 200)).toBe(true)
    const refused = await listen('alice', [handle]).response
    expect(refused.status).toBe(429)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.tooManyStreams)
    // A page that leaves gives its place back.
    open[0]!.cut()
    await vi.waitFor(async () => expect((await listen('alice', [handle]).response).status).toBe(200))
  })

  it('over HTTP, frees a stream’s place when its page disconnects', async () => {
    const { proxy, start } = proxyWith({ streamsPerUser: 2 })
    const { handle } = await start()
    const server = await serve((request) => proxy.handle(request))
    try {
      const open = (controller = new AbortController()) =>
        fetch(`${server.url}/api/tools/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`, { headers: { 'x-user': 'alice' }, signal: controller.signal })
      const first = new AbortController()
      expect((await open(first)).status).toBe(200)
      const second = await open()
      expect(second.status).toBe(200)
      expect((await open()).status).toBe(429)
      first.abort()
      await vi.waitFor(async () => {
        const again = await open()
        await again.body?.cancel()
        expect(again.status).toBe(200)
      })
      await second.body?.cancel()
    } finally {
      await server.close()
    }
  })

  it('beats while idle and ends after streamMaxMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    const { start, listen } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET }, heartbeatMs: 1000, streamMaxMs: 10_000 })
    const { handle } = await start()
    const stream = reader(await listen('alice', [handle]).response)
    await vi.advanceTimersByTimeAsync(1000)
    await stream.comment()
    await vi.advanceTimersByTimeAsync(8000)
    await vi.advanceTimersByTimeAsync(1000)
    expect(await stream.next()).toBe('end')
  })

  it('beats only a stream that was quiet for heartbeatMs: one that just sent an event waits a whole interval', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    const { start, listen, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET }, heartbeatMs: 1500, streamMaxMs: 60_000 })
    const { handle, jobId } = await start()
    const stream = reader(await listen('alice', [handle]).response)
    await stream.created()
    await vi.advanceTimersByTimeAsync(1000)
    await hook({ data: { jobId, status: 'processing', progress: 40 } })
    expect(await stream.next()).toMatchObject({ body: { status: 'processing' } })
    // An idle stream's beat was due at 1.5 s; this one sent at 1 s, so its next comes at 2.5 s.
    await vi.advanceTimersByTimeAsync(1300)
    expect(stream.waiting()).toEqual([])
    await vi.advanceTimersByTimeAsync(200)
    expect(stream.waiting()).toEqual(['comment'])
  })

  it('resumes with Last-Event-ID and misses nothing that happened while it was cut', async () => {
    const { start, listen, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const one = await start()
    const two = await start()
    const first = listen('alice', [one.handle, two.handle])
    const stream = reader(await first.response)
    await stream.created()
    await stream.created()
    await hook({ data: { jobId: one.jobId, status: 'processing', progress: 40 } })
    const seen = await stream.next()
    expect(seen).toMatchObject({ jobId: one.handle, body: { status: 'processing' } })
    first.cut()
    // While the page is away: both jobs end.
    await hook({ data: { jobId: one.jobId, status: 'completed' } })
    await hook({ data: { jobId: two.jobId, status: 'failed' } })
    const resumed = reader(await listen('alice', [one.handle, two.handle], seen !== 'end' ? seen.id : '').response)
    const got = [await resumed.next(), await resumed.next()]
    expect(got.map((each) => each !== 'end' && [each.jobId, each.body.status]).sort()).toEqual(
      [[one.handle, 'completed'], [two.handle, 'failed']].sort(),
    )
    const last = got[1]!
    expect(await resumed.next()).toBe('end')
    // Resumed after the last event: the page has every end already; nothing is sent again.
    const again = reader(await listen('alice', [one.handle, two.handle], last !== 'end' ? last.id : '').response)
    expect(await again.next()).toBe('end')
  })
})

describe('a job’s present state, first on the stream', () => {
  it('is sent as the job joins, and not again to a page whose Last-Event-ID has it', async () => {
    const { start, listen, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const { handle, jobId } = await start()
    const first = listen('alice', [handle])
    const created = await reader(await first.response).created()
    first.cut()
    // The page has it: the resumed stream's first event is the next change, not the creation again.
    const resumed = reader(await listen('alice', [handle], created !== 'end' ? created.id : '').response)
    await hook({ data: { jobId, status: 'processing', progress: 10 } })
    expect(await resumed.next()).toMatchObject({ jobId: handle, body: { status: 'processing', progress: 10 } })
    // A page that has nothing gets the job as it is now.
    const fresh = reader(await listen('alice', [handle]).response)
    expect(await fresh.next()).toMatchObject({ jobId: handle, body: { status: 'processing', progress: 10 } })
    expect(reads()).toBe(0)
  })

  it('of a job the store does not hold is read once, for every page that names it', async () => {
    const { start } = proxyWith()
    const { handle } = await start()
    // Another instance whose store holds nothing of the job (it restarted empty).
    const { listen } = proxyWith({ store: memoryStore() })
    const streams = await Promise.all(Array.from({ length: 5 }, async () => reader(await listen('alice', [handle]).response)))
    for (const stream of streams) expect(await stream.next()).toMatchObject({ jobId: handle, status: 200, body: { status: 'processing' } })
    expect(reads()).toBe(1)
  })

  it('of a job its user may not read, or the service refuses or cannot be reached for, is the refusal a read answers', async () => {
    const { start } = proxyWith()
    const { handle } = await start()
    const stream = async (fetch: typeof service, tools?: ToolId[]) => {
      const proxy = testProxy(fetch, { store: memoryStore() }, () => tools)
      const page = new AbortController()
      opened.add(page)
      const events = `${SITE}/api/tools/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`
      const response = await proxy.handle(new Request(events, { headers: { 'x-user': 'alice' }, signal: page.signal }))
      const read = await proxy.handle(new Request(`${SITE}/api/tools/valuation/report/jobs/${encodeURIComponent(handle)}`, { headers: { 'x-user': 'alice' } }))
      const event = await reader(response).next()
      return { event, read: { status: read.status, body: await read.json() } }
    }
    const gone: typeof service = async () => Response.json({ error: { code: 'not_found', message: 'No such job' } }, { status: 404 })
    const unreachable: typeof service = async () => {
      throw new TypeError('fetch failed')
    }
    for (const [fetch, tools, code] of [
      [service, ['valuation/rent'], PROXY_ERROR_CODES.toolNotAllowed],
      [gone, undefined, 'not_found'],
      [unreachable, undefined, PROXY_ERROR_CODES.serviceUnreachable],
    ] as const) {
      const { event, read } = await stream(fetch, tools && [...tools])
      expect(event).toMatchObject({ jobId: handle, status: read.status, body: read.body })
      expect(read.body).toMatchObject({ error: { code } })
    }
  })
})

/**
 * A stream opened after its page started jobs (their news went before it subscribed, as when the
 * page starts them while its stream is on the way) carries the jobs its page created lately, with
 * their present state, and no older one, nor another tab's, nor anyone else's.
 */
async function joinsRecentJobs(store: ProxyStore) {
  vi.useFakeTimers({ toFake: ['Date'] })
  const options = { store, webhooks: { secret: WEBHOOK_SECRET } }
  const [one, other] = [proxyWith(options), proxyWith(options)]
  const old = await other.start('alice', 'tab-1')
  vi.setSystemTime(Date.now() + 31_000)
  const named = await one.start('alice', 'tab-1')
  const recent = await other.start('alice', 'tab-1')
  const otherTabs = [await other.start('alice', 'tab-2'), await other.start('alice')]
  const bobs = await other.start('bob', 'tab-1')
  const stream = reader(await one.listen('alice', [named.handle], undefined, 'tab-1').response)
  const joined = [await stream.created(), await stream.created()]
  expect(joined.map((each) => each !== 'end' && each.jobId).sort()).toEqual([named.handle, recent.handle].sort())
  for (const { jobId } of [old, bobs, ...otherTabs, recent, named]) await other.hook({ data: { jobId, status: 'completed' } })
  const ends = [await stream.next(), await stream.next()]
  expect(ends.map((each) => each !== 'end' && [each.jobId, each.body.status]).sort()).toEqual([[named.handle, 'completed'], [recent.handle, 'completed']].sort())
  expect(await stream.next()).toBe('end')
  expect(reads()).toBe(0)
}

/** A stream carries the jobs its user starts while it is open, on any instance, and nobody else's. */
async function carriesNewJobs(store: ProxyStore) {
  const options = { store, webhooks: { secret: WEBHOOK_SECRET } }
  const [one, other] = [proxyWith(options), proxyWith(options)]
  const first = await one.start('alice')
  const stream = reader(await one.listen('alice', [first.handle]).response)
  expect(await stream.created()).toMatchObject({ jobId: first.handle })
  const second = await other.start('alice')
  // The job joins with its present state: the page needs no read of it.
  expect(await stream.created()).toMatchObject({ jobId: second.handle })
  const bobs = await other.start('bob')
  for (const { jobId } of [bobs, second, first]) await other.hook({ data: { jobId, status: 'completed' } })
  const got = [await stream.next(), await stream.next()]
  expect(got.map((each) => each !== 'end' && [each.jobId, each.body.status]).sort()).toEqual(
    [[first.handle, 'completed'], [second.handle, 'completed']].sort(),
  )
  expect(await stream.next()).toBe('end')
  expect(reads()).toBe(0)
}

describe('one stream for the page’s life', () => {
  it('carries the jobs its page started lately, whose news went before it opened', () => joinsRecentJobs(memoryStore()))

  it('carries the jobs its user starts while it is open, on any instance, and nobody else’s', () => carriesNewJobs(memoryStore()))

  it('naming its page, carries that page’s new jobs only: another tab’s take none of its places', async () => {
    const { start, listen, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const first = await start('alice', 'tab-1')
    const stream = reader(await listen('alice', [first.handle], undefined, 'tab-1').response)
    expect(await stream.created()).toMatchObject({ jobId: first.handle })
    const otherTab = await start('alice', 'tab-2')
    const mine = await start('alice', 'tab-1')
    expect(await stream.created()).toMatchObject({ jobId: mine.handle })
    for (const { jobId } of [otherTab, mine, first]) await hook({ data: { jobId, status: 'completed' } })
    const got = [await stream.next(), await stream.next()]
    expect(got.map((each) => each !== 'end' && each.jobId).sort()).toEqual([first.handle, mine.handle].sort())
    expect(await stream.next()).toBe('end')
  })

  it('takes a page id that is not one (too long, or not a word) as none: the stream carries every new job of its user', async () => {
    const { start, listen } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const first = await start('alice')
    for (const hostile of ['x'.repeat(65), '../tab-1', 'tab 1']) {
      const stream = reader(await listen('alice', [first.handle], undefined, hostile).response)
      expect(await stream.created()).toMatchObject({ jobId: first.handle })
      const other = await start('alice', 'tab-1')
      expect(await stream.created()).toMatchObject({ jobId: other.handle })
    }
  })

  it('carries them on a store that keeps no lists nor batches (a partner’s own)', () => {
    const { push, list, batch, ...plain } = memoryStore()
    expect([push, list, batch].every(Boolean)).toBe(true)
    return carriesNewJobs(plain)
  })

  it('says of a job it cannot carry, with 50 in flight already, that it does not carry it', async () => {
    const { start, listen, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const carried: Awaited<ReturnType<typeof start>>[] = []
    for (let n = 0; n < 50; n++) carried.push(await start())
    const stream = reader(await listen('alice', carried.map((job) => job.handle)).response)
    for (let n = 0; n < carried.length; n++) await stream.created()
    const over = await start()
    expect(await stream.next()).toEqual({ id: undefined, event: 'full', tool: 'valuation/report', jobId: over.handle })
    // One ended: the next job fits.
    await hook({ data: { jobId: carried[0]!.jobId, status: 'completed' } })
    expect(await stream.next()).toMatchObject({ jobId: carried[0]!.handle, body: { status: 'completed' } })
    const next = await start()
    expect(await stream.created()).toMatchObject({ jobId: next.handle })
  })

  it('resumes a job that joined it with Last-Event-ID: nothing it had is sent again', async () => {
    const { start, listen, hook } = proxyWith({ webhooks: { secret: WEBHOOK_SECRET } })
    const first = await start()
    const stream = reader(await listen('alice', [first.handle]).response)
    await stream.created()
    const second = await start()
    await stream.created()
    await hook({ data: { jobId: second.jobId, status: 'processing', progress: 30 } })
    const seen = await stream.next()
    expect(seen).toMatchObject({ jobId: second.handle, body: { status: 'processing' } })
    await hook({ data: { jobId: first.jobId, status: 'processing', progress: 60 } })
    const last = await stream.next()
    expect(last).toMatchObject({ jobId: first.handle, body: { status: 'processing' } })
    // Resumed naming both jobs, in either order: only what changed since comes.
    const resumed = reader(await listen('alice', [second.handle, first.handle], last !== 'end' ? last.id : '').response)
    await hook({ data: { jobId: second.jobId, status: 'completed' } })
    expect(await resumed.next()).toMatchObject({ jobId: second.handle, body: { status: 'completed' } })
  })
})

describe('one watcher per job', () => {
  /** Two instances sharing `store`, each with pages listening to one job; the service's job ends at 20 s. */
  async function watch(store: ProxyStore, options: Partial<ToolsProxyOptions>, pages: number) {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    const instances = [proxyWith({ store, streamsPerUser: pages, ...options }), proxyWith({ store, streamsPerUser: pages, ...options })]
    const { handle, jobId } = await instances[0]!.start()
    const startedAt = Date.now()
    statusOf = () => (Date.now() - startedAt >= 20_000 ? 'completed' : 'processing')
    const streams = await Promise.all(
      Array.from({ length: pages }, async (_, page) => reader(await instances[page % 2]!.listen('alice', [handle]).response)),
    )
    return { instances, streams, jobId, handle }
  }

  it('without webhooks: a thousand pages on two instances cost the reads of one page', async () => {
    const readsFor = async (pages: number) => {
      received = []
      const { streams } = await watch(memoryStore(), {}, pages)
      const ends = Promise.all(
        streams.map(async (stream) => {
          let event
          while ((event = await stream.next()) !== 'end' && event.body.status !== 'completed');
          return event
        }),
      )
      await vi.advanceTimersByTimeAsync(30_000)
      expect((await ends).every((event) => event !== 'end' && event.body.status === 'completed')).toBe(true)
      return reads()
    }
    const alone = await readsFor(1)
    // One page reads at the client's pace: a read a second for ten seconds, then a tenth of the job's age.
    expect(alone).toBeGreaterThan(10)
    expect(alone).toBeLessThanOrEqual(20)
    expect(await readsFor(1000)).toBeLessThanOrEqual(alone)
    // A thousand streams opening at once read their jobs' states in one trip, then answer together:
    // on fake timers, whose bookkeeping grows with the timers pending, that takes 1–3 s here.
  }, 20_000)

  it('with webhooks: the pages hear the end from the webhook, and nobody reads the service', async () => {
    const { streams, instances, jobId } = await watch(memoryStore(), { webhooks: { secret: WEBHOOK_SECRET } }, 200)
    for (const stream of streams) await stream.created()
    await vi.advanceTimersByTimeAsync(15_000)
    await instances[1]!.hook({ data: { jobId, status: 'completed' } })
    const ends = await Promise.all(streams.map((stream) => stream.next()))
    expect(ends.every((event) => event !== 'end' && event.body.status === 'completed')).toBe(true)
    expect(reads()).toBe(0)
  })

  it('with webhooks that fall quiet: one instance reads the job itself, once a minute', async () => {
    const { streams } = await watch(memoryStore(), { webhooks: { secret: WEBHOOK_SECRET } }, 10)
    for (const stream of streams) await stream.created()
    await vi.advanceTimersByTimeAsync(59_000)
    expect(reads()).toBe(0)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(reads()).toBe(1)
    const ends = await Promise.all(streams.map((stream) => stream.next()))
    expect(ends.every((event) => event !== 'end' && event.body.status === 'completed')).toBe(true)
  })
})

/** A real redis-server for the describes below, started once: they run one after the other. */
let redis: Awaited<ReturnType<typeof startRedis>>
describe('on a real Redis', () => {
  beforeAll(async () => {
    redis = await startRedis()
  }, 30_000)
  afterAll(() => redis?.stop())

  describe('two instances on a real Redis', () => {
    it('a webhook taken by one instance reaches the pages of the other, through publish/subscribe', async () => {
      const [a, b] = [await redis.connect(), await redis.connect()]
      const options = { webhooks: { secret: WEBHOOK_SECRET } }
      const one = proxyWith({ store: redisStore(a, { prefix: 'live-1:', onError: () => {} }), ...options })
      const other = proxyWith({ store: redisStore(b, { prefix: 'live-1:', onError: () => {} }), ...options })
      const { handle, jobId } = await one.start()
      const streams = await Promise.all([one, other, other].map(async (instance) => reader(await instance.listen('alice', [handle]).response)))
      // Each stream's first event, the job's present state, has gone out: it is subscribed.
      for (const stream of streams) await stream.created()
      await other.hook({ data: { jobId, status: 'processing', progress: 5 } })
      for (const stream of streams) expect(await stream.next()).toMatchObject({ body: { status: 'processing' } })
      await one.hook({ data: { jobId, status: 'completed' } })
      for (const stream of streams) {
        expect(await stream.next()).toMatchObject({ body: { status: 'completed' } })
        expect(await stream.next()).toBe('end')
      }
      expect(reads()).toBe(0)
    })
  })

  describe('opening streams (a real redis-server, its commands counted)', () => {
    /** Every command the redis-server ran so far, but the test's own (INFO, PUBSUB). */
    const commands = async (probe: Awaited<ReturnType<typeof redis.connect>>) =>
      [...(await probe.info('commandstats')).matchAll(/cmdstat_(\w+):calls=(\d+)/g)]
        .filter(([, name]) => name !== 'info' && !name!.startsWith('pubsub'))
        .reduce((sum, [, , calls]) => sum + Number(calls), 0)

    it('has its own rate per user: the kit’s page never meets it, a flood does, and a refused open costs the count alone', async () => {
      // The clock at the start of a window of the default rate (10 s, counted from the epoch), going on as time does: the test is in one window.
      vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true })
      vi.setSystemTime(Math.ceil(Date.now() / 10_000) * 10_000)
      const probe = await redis.connect()
      const events: ProxyEvent[] = []
      // The default streamRate, as a partner gets it.
      const { proxy, hook, listen, start } = proxyWith({
        store: redisStore(await redis.connect(), { prefix: 'open-rate:', onError: () => {} }),
        webhooks: { secret: WEBHOOK_SECRET },
        streamRate: undefined,
        onEvent: (event) => events.push(event),
      })
      const refusedOpens = () => events.filter((event) => event.type === 'request' && event.kind === 'events' && event.status === 429).length
      const openNow = () => (events.filter((event) => event.type === 'stream').at(-1) as { open: number } | undefined)?.open ?? 0
      // A page of the kit runs five jobs one after another: a stream for each, as each ends its stream.
      const page = createToolsClient({ baseUrl: `${SITE}/api/tools`, headers: { 'x-user': 'alice' }, retry: false, fetch: (input, init) => proxy.handle(new Request(input, init)) })
      for (let run = 0; run < 5; run++) {
        const running = page.run('valuation/report', { propertyCategory: 'flat', totalArea: 50 } as never)
        await vi.waitFor(() => expect(openNow()).toBe(1))
        await hook({ data: { jobId: `job_${jobs}`, status: 'completed' } })
        expect((await running).phase).toBe('succeeded')
        await vi.waitFor(() => expect(openNow()).toBe(0))
      }
      expect(refusedOpens()).toBe(0)
      expect(reads()).toBe(0)

      // A flood of opens by the same person: past the rate, 429 with Retry-After.
      const { handle } = await start('alice')
      const answers: Response[] = []
      for (let open = 0; open < 30; open++) {
        const stream = listen('alice', [handle])
        answers.push(await stream.response)
        stream.cut()
      }
      const refused = answers.filter((response) => response.status === 429)
      expect(refused.length).toBeGreaterThanOrEqual(5)
      expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
      expect(((await refused[0]!.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.rateLimited)
      // A refused open costs the store its count at most (one script: 4 commands with those inside it),
      // here nothing: this instance found its person over the rate in this window already. Measured
      // once the flood's streams have left their user's channel.
      await vi.waitFor(async () => expect(await probe.pubSubChannels('open-rate:jobs-of:*')).toEqual([]))
      const before = await commands(probe)
      const again = await listen('alice', [handle]).response
      expect(again.status).toBe(429)
      expect((await commands(probe)) - before).toBeLessThanOrEqual(4)
      // Another person opens as before.
      expect((await listen('bob', [(await start('bob')).handle]).response).status).toBe(200)
    })

    it('costs the store one trip for all its jobs’ states, not trips per job', async () => {
      const probe = await redis.connect()
      const { start, listen } = proxyWith({ store: redisStore(await redis.connect(), { prefix: 'open-cost:', onError: () => {} }), webhooks: { secret: WEBHOOK_SECRET } })
      const handles: string[] = []
      for (let job = 0; job < 10; job++) handles.push((await start('alice')).handle)
      const measure = async () => {
        const before = await commands(probe)
        const stream = listen('alice', handles)
        const events = reader(await stream.response)
        for (let job = 0; job < 10; job++) await events.created()
        stream.cut()
        // What the stream's end gives back (its user's channel) has gone before this answers.
        await vi.waitFor(async () => expect(await probe.pubSubChannels('open-cost:jobs-of:*')).toEqual([]))
        return (await commands(probe)) - before
      }
      await measure() // the first open loads the script, once
      const cost = await measure()
      console.info(`Opening and closing a stream of 10 jobs on Redis: ${cost} commands`)
      // The count, the user's channel (subscribe, unsubscribe), each job's channel (subscribe,
      // unsubscribe: on a cluster, its own shard's), the 10 states read by one script per job's tag
      // (all sent at once: one trip), and each event's read of what its job's request carried (a
      // file tool's): 65 here; 36 with one channel for every job and one script (which a cluster
      // refuses), 92 before that.
      expect(cost).toBeLessThanOrEqual(70)
    })
  })

  it('a stream carries the jobs its page started lately, kept in Redis', async () => {
    await joinsRecentJobs(redisStore(await redis.connect(), { prefix: 'recent:', onError: () => {} }))
  })

  it('close() ends the store’s subscribing connection, so a process on Redis can exit once its client closes', async () => {
    const client = await redis.connect({ reconnect: true })
    const connections = async () => String(await client.sendCommand(['CLIENT', 'LIST'])).trim().split('\n').length
    const before = await connections()
    const store = redisStore(client, { prefix: 'close:', onError: () => {} })
    const { start, listen } = proxyWith({ store })
    const { handle } = await start()
    const open = listen('alice', [handle])
    await reader(await open.response).next()
    expect(await connections()).toBe(before + 1)
    open.cut()
    await testProxy(service, { store }).close()
    await vi.waitFor(async () => expect(await connections()).toBe(before))
    client.destroy()
  })

  describe('webhooks through Redis trouble (a real redis-server, frozen and restarted)', () => {
    /**
     * Fake timeouts (the store's 1 s limit among them), moved on until `pending` settles; real I/O
     * meanwhile. Bounded by real time, not turns: a busy machine verifies a signature in more turns.
     */
    async function settleFaked<T>(pending: Promise<T>): Promise<T> {
      let settled = false
      void pending.finally(() => (settled = true))
      const deadline = performance.now() + 10_000
      while (!settled && performance.now() < deadline) {
        await new Promise((resolve) => setImmediate(resolve))
        await vi.advanceTimersByTimeAsync(100)
      }
      return pending
    }
    const statusRead = async (send: ReturnType<typeof proxyWith>['send'], handle: string) =>
      ((await (await send('alice', `/valuation/report/jobs/${encodeURIComponent(handle)}`)).json()) as { status: string }).status

    it('a delivery answered 503 while Redis stalls is taken when the service sends it again', async () => {
      const client = await redis.connect()
      const { start, send, hook } = proxyWith({ store: redisStore(client, { prefix: 'stall:', onError: () => {} }), webhooks: { secret: WEBHOOK_SECRET } })
      const { handle, jobId } = await start()
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
      redis.pause()
      try {
        const refused = await settleFaked(hook({ data: { jobId, status: 'completed' } }, { id: 'msg_stalled' }))
        expect(refused.status).toBe(503)
      } finally {
        redis.resume()
      }
      // Every command sent during the stall has landed once this answers.
      await client.ping()
      vi.useRealTimers()
      expect((await hook({ data: { jobId, status: 'completed' } }, { id: 'msg_stalled' })).status).toBe(204)
      expect(await statusRead(send, handle)).toBe('completed')
      expect(reads()).toBe(0)
    }, 20_000)

    it('after Redis restarts empty, a webhook for a job created before is applied, not kept aside', async () => {
      const client = await redis.connect({ reconnect: true })
      const { start, send, hook } = proxyWith({ store: redisStore(client, { prefix: 'restart:', onError: () => {} }), webhooks: { secret: WEBHOOK_SECRET } })
      const { handle, jobId } = await start()
      await redis.kill()
      redis.revive()
      await vi.waitFor(() => client.ping(), { timeout: 10_000, interval: 20 })
      expect((await hook({ data: { jobId, status: 'completed' } })).status).toBe(204)
      // The store forgot the job: the page's read asks the service (still "processing"), and the webhook's end wins.
      expect(await statusRead(send, handle)).toBe('completed')
      expect(reads()).toBe(1)
      client.destroy()
    }, 20_000)

    it('a stream open on another instance across a restart of Redis (empty) hears the next news within a second of its return', async () => {
      const options = { webhooks: { secret: WEBHOOK_SECRET } }
      const [one, other] = [await redis.connect({ reconnect: true }), await redis.connect({ reconnect: true })]
      const a = proxyWith({ store: redisStore(one, { prefix: 'restart-stream:', onError: () => {} }), ...options })
      const b = proxyWith({ store: redisStore(other, { prefix: 'restart-stream:', onError: () => {} }), ...options })
      const { handle, jobId } = await a.start()
      const stream = reader(await b.listen('alice', [handle]).response)
      expect(await stream.next()).toMatchObject({ body: { status: 'pending' } })
      await redis.kill()
      redis.revive()
      await vi.waitFor(() => Promise.all([one.ping(), other.ping()]), { timeout: 10_000, interval: 20 })
      const back = performance.now()
      expect((await a.hook({ data: { jobId, status: 'completed' } })).status).toBe(204)
      // What came meanwhile may be told first (the stream reads again what it may have missed); then the end.
      let event: Awaited<ReturnType<typeof stream.next>>
      do event = await stream.next()
      while (event !== 'end' && event.body.status !== 'completed')
      expect(event).toMatchObject({ body: { status: 'completed' } })
      expect(performance.now() - back).toBeLessThan(1000)
      one.destroy()
      other.destroy()
    }, 30_000)
  })
})
