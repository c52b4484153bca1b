// @vitest-environment node
import { http, HttpResponse } from 'msw'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import { chunkKit } from '../src/client/chunkKit.js'
import { createPacer } from '../src/client/pacer.js'
import { parseRetryAfter } from '../src/client/refusals.js'
import { MAX_TIMER, sleep } from '../src/client/retry.js'
import { createToolsClient, isToolsError, type Presence, type ToolsClientOptions, type Waiting } from '../src/tools/index.js'
import { setupMockService } from './support/service.js'
import { TabChannel } from './support/tabs.js'
import { loadChunks } from './support/clock.js'

const LIMIT = { limit: 10, windowMs: 1000 }
const { service, server } = setupMockService({ jobDurationMs: 2000, rateLimit: LIMIT })
// The kit's chunks load in real time, which fake timers never advance: load them first.
beforeAll(() => loadChunks())

beforeEach(() => {
  vi.useFakeTimers()
  TabChannel.open.clear()
  vi.stubGlobal('BroadcastChannel', TabChannel)
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

const client = (options: Partial<ToolsClientOptions> = {}) =>
  createToolsClient({ baseUrl: service.baseUrl, apiKey: MOCK_KEYS.demo, ...options })

/** Runs the fake clock in 100 ms steps until every promise has settled. */
async function settle<T>(promises: Promise<T>[]): Promise<PromiseSettledResult<T>[]> {
  let done = false
  const all = Promise.allSettled(promises).finally(() => (done = true))
  while (!done) await vi.advanceTimersByTimeAsync(100)
  return all
}

const polls = () => service.log.filter((entry) => entry.kind === 'poll')
const calls = () => service.log.filter((entry) => entry.kind === 'call')

function presence(state: { hidden?: boolean; offline?: boolean }) {
  const listeners = new Set<() => void>()
  const value: Presence = {
    hidden: () => Boolean(state.hidden),
    offline: () => Boolean(state.offline),
    subscribe: (wake) => (listeners.add(wake), () => listeners.delete(wake)),
  }
  return { value, wake: () => listeners.forEach((wake) => wake()) }
}

describe('one pace for every call of a key', () => {
  // Simulated minutes of 200 runs take seconds of real work: on a busy machine, more than the default 5.
  it('200 concurrent runs under 10 calls a second all succeed, near the allowed rate, with few 429s', { timeout: 60_000 }, async () => {
    const tools = client()
    const start = Date.now()
    let ended = 0
    const results = await settle(
      Array.from({ length: 200 }, () =>
        tools.run('text/generate', { prompt: 'x' }).finally(() => (ended = Date.now())),
      ),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(200)
    expect(service.bills()).toBe(200)
    // The last of 200 calls can be taken in the 20th window; its job then takes 2 s.
    const ideal = 19 * LIMIT.windowMs + 2000
    expect(ended - start).toBeLessThanOrEqual(1.25 * ideal)
    const refused = service.log.filter((entry) => entry.status === 429).length
    expect(refused / service.log.length).toBeLessThanOrEqual(0.05)
  })

  it('a 429 pauses every request of the key until Retry-After, then resumes with one Idempotency-Key', async () => {
    const tools = client()
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 3000 })
    const first = tools.run('valuation/express', {})
    await vi.advanceTimersByTimeAsync(100)
    expect(calls().map((entry) => entry.status)).toEqual([429])
    const refusedAt = calls()[0]!.at
    const second = tools.run('valuation/express', {})
    const read = tools.job('text/generate', 'job_unknown').catch(() => 'read')
    await settle<unknown>([first, second, read])
    const after = service.log.slice(1)
    expect(after).toHaveLength(3)
    for (const entry of after) expect(entry.at).toBeGreaterThanOrEqual(refusedAt + 3000)
    expect(after[0]!.kind).toBe('call')
    expect(calls()[1]!.idempotencyKey).toBe(calls()[0]!.idempotencyKey)
    expect(service.bills()).toBe(2)
  })

  it('tabs of one origin share the pause', async () => {
    const [tabA, tabB] = [client(), client()]
    // Tab B is in use before tab A meets the limit.
    await settle([tabB.run('valuation/express', {})])
    service.log.length = 0
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 5000 })
    const first = tabA.run('valuation/express', {})
    await vi.advanceTimersByTimeAsync(100)
    const second = tabB.run('valuation/express', {})
    await settle([first, second])
    const [refused, ...rest] = calls()
    expect(rest).toHaveLength(2)
    for (const entry of rest) expect(entry.at).toBeGreaterThanOrEqual(refused!.at + 5000)
  })

  it('no run fails for rate limiting while its wait budget lasts; past it, a rate-limit error', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 20_000, times: 5 })
    const [ok] = await settle([client().run('valuation/express', {})])
    expect(ok!.status).toBe('fulfilled')
    expect(service.bills()).toBe(1)

    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 50_000, times: 5 })
    const [failed] = await settle([client().run('valuation/express', {})])
    expect(failed).toMatchObject({ status: 'rejected', reason: { kind: 'rate-limit', status: 429 } })
    expect(service.bills()).toBe(1)
  })

  it('tells each wait as it starts: rate limit with its end, retries with their number, offline', async () => {
    const seen: (Waiting | null)[] = []
    const onWait = (waiting: Waiting | null) => seen.push(waiting)
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 3000 })
    const now = Date.now()
    await settle([client().run('valuation/express', {}, { onWait })])
    expect(seen[0]).toMatchObject({ reason: 'rate-limit' })
    expect(seen[0]!.until! - now).toBeGreaterThanOrEqual(3000)
    expect(seen.at(-1)).toBeNull()

    seen.length = 0
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 2 })
    await settle([client().run('text/generate', {}, { onWait })])
    expect(seen.filter(Boolean)).toEqual([
      expect.objectContaining({ reason: 'retrying', attempt: 1 }),
      expect.objectContaining({ reason: 'retrying', attempt: 2 }),
    ])

    seen.length = 0
    const state = { offline: true }
    const page = presence(state)
    service.inject({ match: { kind: 'call' }, fault: 'network' })
    const running = client().run('content/generate', {}, { onWait, presence: page.value })
    await vi.advanceTimersByTimeAsync(60_000)
    expect(seen).toEqual([{ reason: 'offline' }])
    state.offline = false
    page.wake()
    await settle([running])
    expect(calls().filter((entry) => entry.tool === 'content/generate' && entry.status === 202)).toHaveLength(1)
  })
})

describe('the pacer', () => {
  it('lets job-creating calls go before reads once reads are paced too', async () => {
    const pacer = createPacer(chunkKit)
    const order: string[] = []
    const options = { deadline: Infinity, expire: () => 'expired' }
    pacer.answer(false, 1000)
    const reads = [1, 2].map((n) => pacer.take(false, options).then(() => order.push(`read ${n}`)))
    const call = pacer.take(true, options).then(() => order.push('call'))
    await vi.advanceTimersByTimeAsync(5000)
    await Promise.all([...reads, call])
    expect(order).toEqual(['call', 'read 1', 'read 2'])
  })

  it('tells a request held by a pause when it will go, and fails one whose budget the pause outlasts', async () => {
    const pacer = createPacer(chunkKit)
    const held: number[] = []
    const now = Date.now()
    pacer.answer(true, 10_000)
    const patient = pacer.take(true, { deadline: Infinity, expire: () => 'expired', onHold: (until) => held.push(until) })
    const hurried = pacer.take(true, { deadline: now + 5000, expire: () => 'expired' })
    await expect(hurried).rejects.toBe('expired')
    expect(held[0]! - now).toBeGreaterThanOrEqual(10_000)
    await vi.advanceTimersByTimeAsync(12_000)
    await expect(patient).resolves.toBeUndefined()
  })
})

describe('polling', () => {
  it.each([10_000, 60_000, 600_000])('sees a %i ms job end within max(1 s, 10%%), at most 10 s late, in at most 100 reads', async (length) => {
    // A service of its own whose job ends `length` ms after its creation.
    let createdAt = 0
    const reads: number[] = []
    const tools = client({
      baseUrl: 'https://service.test/v1',
      fetch: async (input, init) => {
        if (init?.method === 'POST') {
          createdAt = Date.now()
          return Response.json({ jobId: 'job_1', status: 'pending', requestId: 'req_1' }, { status: 202 })
        }
        reads.push(Date.now())
        return Response.json({ jobId: 'job_1', status: Date.now() - createdAt >= length ? 'completed' : 'processing' })
      },
    })
    const [result] = await settle([tools.run('video/create', { file: new Blob(['x']) })])
    expect(result!.status).toBe('fulfilled')
    const late = reads.at(-1)! - (createdAt + length)
    expect(late).toBeLessThanOrEqual(Math.min(10_000, Math.max(1000, length / 10)))
    expect(reads.length).toBeLessThanOrEqual(100)
  })

  it('polls at most once in 30 s in a hidden page, and at once when shown again', async () => {
    const { jobId } = await client().start('pdf/create', { objectId: 'obj_demo' })
    service.freezeJobs()
    const state = { hidden: true }
    const page = presence(state)
    const controller = new AbortController()
    const waiting = client().wait('pdf/create', jobId, { presence: page.value, signal: controller.signal }).catch(() => 'stopped')
    await vi.advanceTimersByTimeAsync(5 * 60_000)
    const hidden = polls().map((entry) => entry.at)
    for (let i = 1; i < hidden.length; i++) expect(hidden[i]! - hidden[i - 1]!).toBeGreaterThanOrEqual(30_000)
    expect(hidden.length).toBeLessThanOrEqual(11)
    state.hidden = false
    page.wake()
    await vi.advanceTimersByTimeAsync(0)
    expect(polls()).toHaveLength(hidden.length + 1)
    controller.abort()
    await settle([waiting])
  })

  it('stops at the poll timeout with a timeout error naming the job, which can be waited for again', async () => {
    const tools = client({ pollTimeout: 60_000 })
    service.freezeJobs()
    const [result] = await settle([tools.run('avatar/video', {})])
    const error = (result as PromiseRejectedResult).reason
    expect(isToolsError(error) && error.kind).toBe('timeout')
    expect(error.jobId).toMatch(/^job_/)
    service.freezeJobs(false)
    const [again] = await settle([tools.wait('avatar/video', error.jobId)])
    expect(again).toMatchObject({ status: 'fulfilled', value: { phase: 'succeeded' } })
    expect(service.bills()).toBe(1)
  })
})

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates only, within a day', () => {
    const now = Date.parse('Sun, 06 Nov 1994 08:49:37 GMT')
    expect(parseRetryAfter('3', now)).toBe(3000)
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:47 GMT', now)).toBe(10_000)
    expect(parseRetryAfter('Sun, 06 Nov 1994 08:49:00 GMT', now)).toBe(0)
    for (const unreadable of ['-1', '1.5', 'May 5', '0x10', '', null, '3 seconds']) {
      expect(parseRetryAfter(unreadable, now)).toBeUndefined()
    }
    expect(parseRetryAfter('99999999999', now)).toBe(86_400_000)
  })

  it('an unreadable Retry-After backs off instead of firing at once', async () => {
    server.use(
      http.post(`${service.baseUrl}/valuation/express`, () => new HttpResponse(null, { status: 429, headers: { 'Retry-After': '-1' } }), {
        once: true,
      }),
    )
    const sent: number[] = []
    server.events.on('request:start', () => void sent.push(Date.now()))
    const [result] = await settle([client().run('valuation/express', {})])
    server.events.removeAllListeners()
    expect(result!.status).toBe('fulfilled')
    expect(sent).toHaveLength(2)
    expect(sent[1]! - sent[0]!).toBeGreaterThanOrEqual(250)
  })

  it('a delay past setTimeout’s range waits instead of firing at once', async () => {
    let done = false
    void sleep(2 ** 40).then(() => (done = true))
    await vi.advanceTimersByTimeAsync(60_000)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(MAX_TIMER)
    expect(done).toBe(true)
  })
})
