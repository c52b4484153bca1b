// @vitest-environment node
// What a stranger's webhooks cost: nothing read before the headers could be the service's, a
// small body cap of the webhook route's own, a bound on the bodies read at once, and one HMAC per
// secret however many signatures a delivery carries. Over real HTTP (srvx) where timing matters.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { webhookKey, webhookSignature } from '../src/client/standardWebhooks.js'
import { PROXY_ERROR_CODES } from '../src/tools/index.js'
import { listen } from './support/http.js'
import { SITE, testProxy } from './support/proxy.js'
import { rawPost } from './support/rawHttp.js'

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const OLD_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'
const service: typeof fetch = async () => Response.json({})
const now = () => String(Math.floor(Date.now() / 1000))
/** A well-formed `v1` signature that no secret made. */
const forged = (fill = 7) => `v1,${btoa(String.fromCharCode(...new Uint8Array(32).fill(fill)))}`

describe('a stranger’s webhook over real HTTP', () => {
  let server: Awaited<ReturnType<typeof listen>>
  beforeAll(async () => {
    // Thirty seconds for a call's body: a route that waited for one would not answer within the test.
    const proxy = testProxy(service, { webhooks: { secret: WEBHOOK_SECRET, maxReading: 4, bodyTimeoutMs: 1000 }, timeoutMs: 30_000 })
    server = await listen((request) => proxy.handle(request))
  })
  afterAll(() => server.close())
  const url = () => `${server.url}/api/tools/webhooks`
  const open: { close(): void }[] = []
  afterEach(() => {
    for (const each of open.splice(0)) each.close()
  })

  it.each([
    ['no signature headers', {}],
    ['no webhook-id', { 'webhook-timestamp': now(), 'webhook-signature': forged() }],
    ['a malformed signature', { 'webhook-id': 'msg_1', 'webhook-timestamp': now(), 'webhook-signature': 'v1,AAAA' }],
    ['a timestamp that is not a number', { 'webhook-id': 'msg_1', 'webhook-timestamp': 'soon', 'webhook-signature': forged() }],
    ['a stale timestamp', { 'webhook-id': 'msg_1', 'webhook-timestamp': String(Math.floor(Date.now() / 1000) - 3600), 'webhook-signature': forged() }],
  ])('with %s is refused 401 before its body is read', async (_, headers: Record<string, string>) => {
    // 4 MiB declared, 1 KiB sent, then nothing: the answer comes all the same, at once.
    const sent = rawPost(url(), { ...headers, 'content-type': 'application/json', 'content-length': String(4 * 1024 * 1024) }, 4 * 1024 * 1024, 1024)
    open.push(sent)
    expect(await sent.status).toBe(401)
  })

  it('reads at most maxReading slow bodies at once, past it 429, and room again when they go; a body sent whole needs no place', async () => {
    const stalled = () => {
      const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': now(), 'webhook-signature': forged(), 'content-length': String(64 * 1024) }
      const sent = rawPost(url(), headers, 64 * 1024, 1024)
      open.push(sent)
      return sent
    }
    /** A whole delivery with a forged signature: read, and refused 401 for its signature. */
    const whole = async () => {
      const response = await fetch(url(), { method: 'POST', body: '{}', headers: { 'webhook-id': 'msg_2', 'webhook-timestamp': now(), 'webhook-signature': forged(9) } })
      return response.status
    }
    /** A slow one: 429 when every place is held. */
    const slow = () => stalled().status
    const four = [stalled(), stalled(), stalled(), stalled()]
    await vi.waitFor(async () => expect(await slow()).toBe(429))
    expect(await whole()).toBe(401)
    for (const each of four) each.close()
    // Room again: a slow body is read until its deadline.
    await vi.waitFor(async () => expect(await slow()).toBe(408), { timeout: 5000 })
  })
})

/** The headers of a genuine delivery of `body`, signed with `secrets`. */
const signed = async (body: string, secrets: string[] = [WEBHOOK_SECRET]) => {
  const id = `msg_${Math.random().toString(36).slice(2)}`
  const timestamp = Math.floor(Date.now() / 1000)
  const signatures = await Promise.all(secrets.map(async (secret) => webhookSignature(await webhookKey(secret), id, timestamp, body)))
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') }
}

describe('the webhook route’s own cap', () => {
  const deliver = async (proxy: ReturnType<typeof testProxy>, body: string, headers: Record<string, string>) =>
    proxy.handle(new Request(`${SITE}/api/tools/webhooks`, { method: 'POST', body, headers }))
  const padded = (bytes: number) => JSON.stringify({ data: { jobId: 'job_1', status: 'completed', pad: 'x'.repeat(bytes) } })

  it('is 256 KiB by default, whatever maxAnswerBytes says', async () => {
    const proxy = testProxy(service, { webhooks: { secret: WEBHOOK_SECRET } })
    const small = padded(200 * 1024)
    expect((await deliver(proxy, small, await signed(small))).status).toBe(204)
    const large = padded(300 * 1024)
    const refused = await deliver(proxy, large, await signed(large))
    expect(refused.status).toBe(413)
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.uploadTooLarge)
    expect(() => testProxy(service, { webhooks: { secret: WEBHOOK_SECRET, maxBytes: 0 } })).toThrow(TypeError)
    expect(() => testProxy(service, { webhooks: { secret: WEBHOOK_SECRET, maxReading: 0 } })).toThrow(TypeError)
  })

  it('computes one HMAC per secret, however many signatures a delivery carries', async () => {
    const proxy = testProxy(service, { webhooks: { secret: [WEBHOOK_SECRET, OLD_SECRET] } })
    const body = padded(64 * 1024)
    const junk = { 'webhook-id': 'msg_junk', 'webhook-timestamp': now(), 'webhook-signature': Array.from({ length: 8 }, (_, index) => forged(index)).join(' ') }
    const headers = await signed(body, [OLD_SECRET]) // signed before counting
    // Node's crypto where the runtime has it (as here), Web Crypto elsewhere: both counted.
    const node = process.getBuiltinModule('node:crypto')
    const hmacs = [vi.spyOn(node, 'createHmac'), vi.spyOn(crypto.subtle, 'sign'), vi.spyOn(crypto.subtle, 'verify')]
    const counted = () => hmacs.reduce((sum, spy) => sum + spy.mock.calls.length, 0)
    try {
      expect((await deliver(proxy, body, junk)).status).toBe(401)
      // Two secrets: two HMACs of the body, not sixteen.
      expect(counted()).toBe(2)
      for (const spy of hmacs) spy.mockClear()
      // Signed with the second secret: both tried.
      expect((await deliver(proxy, body, headers)).status).toBe(204)
      expect(counted()).toBe(2)
    } finally {
      for (const spy of hmacs) spy.mockRestore()
    }
  })
})

describe('the service’s deliveries while a stranger crowds the route', () => {
  // Jobs the stand-in service makes, read as running until a webhook ends them.
  let made = 0
  const jobService: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    if (request.method === 'POST') return Response.json({ jobId: `job_${++made}`, status: 'pending' }, { status: 202 })
    return Response.json({ jobId: new URL(request.url).pathname.split('/').pop(), status: 'processing' })
  }
  let server: Awaited<ReturnType<typeof listen>>
  let crowd: ReturnType<typeof spawn>
  beforeAll(async () => {
    // The defaults: 16 places, 30 s for a call's body.
    const proxy = testProxy(jobService, { webhooks: { secret: WEBHOOK_SECRET } })
    server = await listen((request) => proxy.handle(request))
  })
  afterAll(async () => {
    crowd?.kill()
    await server.close()
  })

  it('takes in every genuine delivery at once, and pages see each end within a second of it', async () => {
    const url = `${server.url}/api/tools`
    // The stranger, in a process of its own: 24 connections, a byte a second each, reopened when answered.
    crowd = spawn(process.execPath, [fileURLToPath(new URL('./support/webhook-crowd.mjs', import.meta.url)), `${url}/webhooks`, '24', '1000'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    const lines = createInterface({ input: crowd.stdout! })[Symbol.asyncIterator]()
    expect(JSON.parse((await lines.next()).value as string)).toEqual({ opened: 24 })
    // Every place is held: a slow body of our own is refused.
    await vi.waitFor(async () => {
      const probe = rawPost(`${url}/webhooks`, { 'webhook-id': 'msg_probe', 'webhook-timestamp': now(), 'webhook-signature': forged(), 'content-length': '4096' }, 4096, 1)
      const status = await probe.status
      probe.close()
      expect(status).toBe(429)
    })
    const lateness: number[] = []
    for (let job = 0; job < 3; job++) {
      const created = await fetch(`${url}/pdf/create`, { method: 'POST', body: '{"objectId":"obj_1"}', headers: { 'content-type': 'application/json', 'x-user': 'alice' } })
      const { jobId: handle } = (await created.json()) as { jobId: string }
      const page = new AbortController()
      const stream = await fetch(`${url}/events?job=${encodeURIComponent(`pdf/create:${handle}`)}`, { headers: { 'x-user': 'alice' }, signal: page.signal })
      const events = eventsOf(stream)
      expect(await events.next(/"status":"pending"/)).toBeTruthy()
      const body = JSON.stringify({ type: 'job.updated', data: { jobId: `job_${made}`, status: 'completed' } })
      const sent = performance.now()
      const delivery = await fetch(`${url}/webhooks`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...(await signed(body)) } })
      expect(delivery.status).toBe(204)
      expect(await events.next(/"status":"completed"/)).toBeTruthy()
      lateness.push(performance.now() - sent)
      page.abort()
    }
    console.info(`Under the crowding attack, each end reached its page ${lateness.map((ms) => `${ms.toFixed(0)} ms`).join(', ')} after its delivery was sent`)
    expect(Math.max(...lateness)).toBeLessThan(1000)
    // The stranger was answered all along: refused, or cut at the deadline.
    crowd.stdin!.write('stats\n')
    const { answers } = JSON.parse((await lines.next()).value as string) as { answers: Record<string, number> }
    expect(Object.keys(answers).every((status) => status === '429' || status === '408')).toBe(true)
  }, 30_000)
})

/** The events of a stream as they come: `next(pattern)` is the next one whose data matches. */
function eventsOf(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ''
  return {
    async next(pattern: RegExp): Promise<string> {
      for (;;) {
        const end = buffer.indexOf('\n\n')
        if (end >= 0) {
          const event = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          if (pattern.test(event)) return event
          continue
        }
        const { done, value } = await reader.read()
        if (done) throw new Error('the stream ended')
        buffer += value
      }
    },
  }
}

describe('a delivery refused for want of a place', () => {
  afterEach(() => vi.useRealTimers())

  it('has watched jobs read at the page’s pace for a while, not once a minute', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    let status = 'processing'
    const jobService: typeof fetch = async (input, init) =>
      new Request(input, init).method === 'POST' ? Response.json({ jobId: 'job_1', status: 'pending' }, { status: 202 }) : Response.json({ jobId: 'job_1', status })
    const proxy = testProxy(jobService, { webhooks: { secret: WEBHOOK_SECRET, maxReading: 1 } })
    const send = (path: string, init: RequestInit = {}) => proxy.handle(new Request(`${SITE}/api/tools${path}`, init))
    /** A delivery whose body sends a byte and then nothing. */
    const slow = () => {
      const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array([123])) })
      const headers = { 'webhook-id': 'msg_slow', 'webhook-timestamp': now(), 'webhook-signature': forged() }
      return send('/webhooks', { method: 'POST', body, headers, duplex: 'half' } as RequestInit)
    }
    void slow()
    await vi.advanceTimersByTimeAsync(300)
    const refused = slow()
    await vi.advanceTimersByTimeAsync(300)
    expect((await refused).status).toBe(429)

    const created = await send('/pdf/create', { method: 'POST', body: '{"objectId":"obj_1"}', headers: { 'content-type': 'application/json', 'x-user': 'alice' } })
    const { jobId: handle } = (await created.json()) as { jobId: string }
    const stream = await send(`/events?job=${encodeURIComponent(`pdf/create:${handle}`)}`, { headers: { 'x-user': 'alice' } })
    const events = eventsOf(stream)
    expect(await events.next(/"status":"pending"/)).toBeTruthy()
    // The job ends at the service; no webhook tells of it.
    status = 'completed'
    let seen = false
    void events.next(/"status":"completed"/).then(() => (seen = true))
    await vi.advanceTimersByTimeAsync(5000)
    expect(seen).toBe(true)
    await stream.body?.cancel()
  })
})
