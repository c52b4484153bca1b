// @vitest-environment node
// What a stranger's webhooks cost: nothing read before the headers could be the service's, a
// small body cap of the webhook route's own, a bound on the bodies read at once, and one HMAC per
// secret however many signatures a delivery carries. Over real HTTP (srvx) where timing matters.
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
    // Thirty seconds for a body: a route that waited for one would not answer within the test.
    const proxy = testProxy(service, { webhooks: { secret: WEBHOOK_SECRET, maxReading: 4 }, timeoutMs: 30_000 })
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

  it('reads at most maxReading unverified bodies at once; past it 429 at once, and room again when they go', async () => {
    const stalled = () => {
      const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': now(), 'webhook-signature': forged(), 'content-length': String(64 * 1024) }
      const sent = rawPost(url(), headers, 64 * 1024, 1024)
      open.push(sent)
      return sent
    }
    /** A whole delivery with a forged signature: 401 when it is read, 429 when there is no room to read it. */
    const probe = async () => {
      const response = await fetch(url(), { method: 'POST', body: '{}', headers: { 'webhook-id': 'msg_2', 'webhook-timestamp': now(), 'webhook-signature': forged(9) } })
      return response.status
    }
    expect(await probe()).toBe(401)
    const four = [stalled(), stalled(), stalled(), stalled()]
    await vi.waitFor(async () => expect(await probe()).toBe(429))
    for (const each of four) each.close()
    await vi.waitFor(async () => expect(await probe()).toBe(401))
  })
})

describe('the webhook route’s own cap', () => {
  const signed = async (body: string, secrets: string[] = [WEBHOOK_SECRET]) => {
    const id = `msg_${Math.random().toString(36).slice(2)}`
    const timestamp = Math.floor(Date.now() / 1000)
    const signatures = await Promise.all(secrets.map(async (secret) => webhookSignature(await webhookKey(secret), id, timestamp, body)))
    return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatures.join(' ') }
  }
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
    const sign = vi.spyOn(crypto.subtle, 'sign')
    const verify = vi.spyOn(crypto.subtle, 'verify')
    try {
      expect((await deliver(proxy, body, junk)).status).toBe(401)
      // Two secrets: two HMACs of the body, not sixteen.
      expect(sign.mock.calls.length + verify.mock.calls.length).toBe(2)
      sign.mockClear()
      expect((await deliver(proxy, body, headers)).status).toBe(204)
      expect(sign.mock.calls.length + verify.mock.calls.length).toBe(2)
    } finally {
      sign.mockRestore()
      verify.mockRestore()
    }
  })
})
