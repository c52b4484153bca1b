// The page's side of live updates: behind a proxy that names an event stream, `client.run`,
// `client.wait` and `useJob` hear a job's end from the stream (pushed by a webhook) instead of
// polling, share one stream for every job, resume a cut stream, and poll when it fails. The proxy
// answers in process; the service is a stand-in whose job ends only when told.
import '@testing-library/jest-dom/vitest'
import { act, render, screen } from '@testing-library/react'
import { Webhook } from 'standardwebhooks'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { webhookKey, webhookSignature } from '../src/client/standardWebhooks.js'
// The client loads its stream's code when a proxy first names one; loaded here, it comes at once,
// not after real time that the fake clock does not see.
import '../src/client/events.js'
import { createMockService, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider, useJob } from '../src/react/index.js'
import { createToolsProxy, type ToolsProxyOptions } from '../src/server/index.js'
import { createToolsClient, TOOLS, type Job, type ToolsError } from '../src/tools/index.js'
import { loadChunks } from './support/clock.js'

const SERVICE = 'https://tools.cabinet.test/v1'
const SITE = 'https://partner.test'
const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

let serviceReads = 0
let statusOf: () => string = () => 'processing'
let jobs = 0
const service: typeof fetch = async (input, init) => {
  if (init?.method === 'POST') return Response.json({ jobId: `job_${++jobs}`, status: 'pending', requestId: 'req_1' }, { status: 202 })
  serviceReads++
  return Response.json({ jobId: new URL(String(input)).pathname.split('/').pop(), status: statusOf() })
}

/** What the page asked the proxy, by kind. */
let pageRequests: { kind: 'events' | 'read' | 'call'; lastEventId: string | null }[] = []
/** The page's requests its proxy refused with 429. */
let refusals = 0
/** How the next event stream requests are answered instead of by the proxy, while this says so. */
let breakStreams: (() => Response | Promise<Response>) | undefined
/** Event stream requests wait for this before they reach the proxy, as on a slow network, while it is set. */
let holdStreams: Promise<void> | undefined
/** Event streams are cut (as a network error) this long after they open, while this says so. */
let cutStreamsAfter: number | undefined

/** The proxy's stream, failing on the way after `ms`, as a dropped connection does. */
function cutting(response: Response, ms: number): Response {
  const reader = response.body!.getReader()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      setTimeout(() => {
        controller.error(new TypeError('network error'))
        void reader.cancel()
      }, ms)
    },
    async pull(controller) {
      const chunk = await reader.read()
      if (chunk.done) controller.close()
      else controller.enqueue(chunk.value)
    },
  })
  return new Response(body, { status: response.status, headers: response.headers })
}

function setup(options: Partial<ToolsProxyOptions> = {}) {
  const proxy = createToolsProxy({
    baseUrl: SERVICE,
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: 'a-test-secret-of-at-least-thirty-two-characters',
    authorize: () => ({ user: 'alice', tools: TOOLS.map((tool) => tool.id) }),
    rate: { requests: 100_000, perMs: 1000 },
    fetch: service,
    webhooks: { secret: WEBHOOK_SECRET },
    onError: () => {},
    ...options,
  })
  const page: typeof fetch = async (input, init) => {
    const request = new Request(input, init)
    const path = new URL(request.url).pathname
    const kind = path.endsWith('/events') ? 'events' : request.method === 'GET' ? 'read' : 'call'
    pageRequests.push({ kind, lastEventId: request.headers.get('last-event-id') })
    if (kind === 'events' && breakStreams) return breakStreams()
    if (kind === 'events') await holdStreams
    inFlight++
    try {
      const response = await proxy.handle(request)
      if (response.status === 429) refusals++
      return kind === 'events' && cutStreamsAfter !== undefined ? cutting(response, cutStreamsAfter) : response
    } finally {
      inFlight--
    }
  }
  const client = createToolsClient({ baseUrl: `${SITE}/api/tools`, retry: false, fetch: page })
  /** The service tells the proxy of a job, as a signed webhook. */
  const hook = async (jobId: string, status: string, extra: Record<string, unknown> = {}) => {
    const body = JSON.stringify({ type: 'job.updated', data: { jobId, status, ...extra } })
    const id = crypto.randomUUID()
    const timestamp = Math.floor(Date.now() / 1000)
    inFlight++
    const response = await proxy.handle(
      new Request(`${SITE}/api/tools/webhooks`, {
        method: 'POST',
        body,
        headers: {
          'webhook-id': id,
          'webhook-timestamp': String(timestamp),
          'webhook-signature': await webhookSignature(await webhookKey(WEBHOOK_SECRET), id, timestamp, body),
        },
      }),
    ).finally(() => inFlight--)
    expect(response.status).toBe(204)
  }
  return { proxy, client, hook }
}
const count = (kind: 'events' | 'read' | 'call') => pageRequests.filter((request) => request.kind === kind).length
// The kit's chunks load in real time, which fake timers never advance: load them first.
beforeAll(() => loadChunks())

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
})
afterEach(() => {
  vi.useRealTimers()
  pageRequests = []
  refusals = 0
  breakStreams = undefined
  holdStreams = undefined
  cutStreamsAfter = undefined
  serviceReads = 0
  statusOf = () => 'processing'
})

/**
 * The proxy's work is partly off the fake clock (Web Crypto signs on a thread of its own): real
 * turns of the event loop until no request is being answered. Nothing the proxy does here waits on
 * the fake clock, so the bound is real time (a hang fails the test), not a count of turns, which a
 * busy machine can run through before the crypto thread answers.
 */
let inFlight = 0
const REAL_BOUND_MS = 10_000
async function settle() {
  const deadline = performance.now() + REAL_BOUND_MS
  for (let turn = 0; turn < 5 || (inFlight > 0 && performance.now() < deadline); turn++) await new Promise((resolve) => setImmediate(resolve))
  // Timers due now, with no time passing (TanStack tells its observers on one).
  await act(() => vi.advanceTimersByTimeAsync(0))
}
/** Moves fake time on in small steps, letting in-process requests answer in between. */
async function advance(ms: number, step = 50) {
  await settle()
  for (let done = 0; done < ms; done += step) {
    await act(() => vi.advanceTimersByTimeAsync(Math.min(step, ms - done)))
    await settle()
  }
}
/** Real turns until `check` passes (what a stream pushes arrives between them), with no fake time passing. */
async function until(check: () => void) {
  const deadline = performance.now() + REAL_BOUND_MS
  for (;;) {
    try {
      return check()
    } catch (error) {
      if (performance.now() > deadline) throw error
      await settle()
    }
  }
}

/**
 * Fake time on in small steps until `check` passes, at most `ms`: for what follows a short timer
 * set only once real turns have carried a cut through (the stream's reopening after 50 ms), which
 * a busy machine can set after a fixed advance has already run out.
 */
async function advanceUntil(check: () => void, ms = 1000, step = 50) {
  for (let done = 0; ; done += step) {
    try {
      return check()
    } catch (error) {
      if (done >= ms) throw error
      await advance(step)
    }
  }
}

/** A promise's outcome, readable as soon as it has one. */
function track<T>(promise: Promise<T>) {
  const outcome: { value?: T; error?: unknown } = {}
  promise.then((value) => (outcome.value = value), (error: unknown) => (outcome.error = error))
  return outcome
}

const REPORT = { propertyCategory: 'flat', totalArea: 50 } as const

describe('client.run and client.wait behind a proxy with webhooks', () => {
  it('hear the end from the stream, with no poll and no read of the service', async () => {
    const { client, hook } = setup()
    const progress: Job[] = []
    const run = track(client.run('valuation/report', REPORT, { onJob: (job) => progress.push(job) }))
    await advance(100)
    await hook(`job_${jobs}`, 'processing', { progress: 40 })
    await until(() => expect(progress.at(-1)).toMatchObject({ status: 'processing', progress: 0.4 }))
    await advance(30_000)
    await hook(`job_${jobs}`, 'completed')
    await until(() => expect(run.value).toMatchObject({ status: 'completed', phase: 'succeeded' }))
    expect(count('read')).toBe(0)
    expect(count('events')).toBe(1)
    expect(serviceReads).toBe(0)
  })

  it('share one stream for every job the page follows at once', async () => {
    const { client, hook } = setup()
    const handles = await Promise.all([1, 2, 3].map(() => client.start('valuation/report', REPORT)))
    const waits = track(Promise.all(handles.map((handle) => client.wait('valuation/report', handle.jobId))))
    await advance(100)
    for (const n of [jobs - 2, jobs - 1, jobs]) await hook(`job_${n}`, 'completed')
    await until(() => expect(waits.value).toHaveLength(3))
    // The creations named the stream: each job's first state comes on it, as it joins, and no read.
    expect(count('read')).toBe(0)
    expect(count('events')).toBe(1)
  })

  it('take up a job from the state it joined the stream with, when followed after it came, with no read', async () => {
    const { client, hook } = setup()
    // A job the page follows: its stream is open.
    void client.run('valuation/report', REPORT).catch(() => {})
    await advance(100)
    const { jobId } = await client.start('valuation/report', REPORT)
    // It joined the open stream, its first state with it, before anything followed it (a job view mounting later).
    await advance(100)
    const seen: string[] = []
    const waited = track(client.wait('valuation/report', jobId, { onJob: (job) => seen.push(job.status) }))
    await until(() => expect(seen).toEqual(['pending']))
    await hook(`job_${jobs}`, 'completed')
    await until(() => expect(waited.value).toMatchObject({ status: 'completed' }))
    expect(count('read')).toBe(0)
    expect(count('events')).toBe(1)
  })

  it('surface a job the user may not read as a read would, told by the stream; refuse bad input before any request', async () => {
    const { client } = setup()
    await client.start('valuation/report', REPORT)
    await advance(100)
    const opened = count('events')
    // Another user's handle, or one never issued: the proxy tells its refusal on the stream, the page reads it for the error.
    const waited = track(client.wait('valuation/report', 'job_of_someone_else'))
    await advanceUntil(() => expect(waited.error).toBeDefined())
    expect(count('events')).toBe(opened + 1)
    expect(count('read')).toBe(1)
    const read = await client.job('valuation/report', 'job_of_someone_else').catch((error: unknown) => error)
    expect(waited.error).toMatchObject({ kind: 'not-found', status: 404, jobId: 'job_of_someone_else' })
    expect(waited.error).toMatchObject({ kind: (read as ToolsError).kind, status: (read as ToolsError).status, message: (read as ToolsError).message })
    const requests = pageRequests.length
    await expect(client.wait('valuation/nope' as 'valuation/report', 'job_1')).rejects.toMatchObject({ kind: 'validation', issues: [{ field: 'tool' }] })
    await expect(client.wait('valuation/report', '')).rejects.toMatchObject({ kind: 'validation', issues: [{ field: 'jobId' }] })
    expect(pageRequests.length).toBe(requests)
  })

  it('resume a stream cut by the proxy with Last-Event-ID, and miss nothing', async () => {
    const { client, hook } = setup({ streamMaxMs: 10_000 })
    const progress: (string | undefined)[] = []
    const run = track(client.run('valuation/report', REPORT, { onJob: (job) => progress.push(job.status) }))
    await advance(100)
    await hook(`job_${jobs}`, 'processing')
    // The job's state as it joined the stream (its creation's), then its change.
    await until(() => expect(progress).toEqual(['pending', 'processing']))
    await advance(10_000)
    // The first stream ended at its time; the page resumed where it was.
    await advanceUntil(() => expect(count('events')).toBe(2))
    expect(pageRequests.filter((request) => request.kind === 'events')[1]!.lastEventId).toBeTruthy()
    await hook(`job_${jobs}`, 'completed')
    await until(() => expect(run.value).toMatchObject({ status: 'completed' }))
    expect(progress).toEqual(['pending', 'processing', 'completed'])
    expect(count('read')).toBe(0)
  })

  it('resume a stream cut on the way at once, with Last-Event-ID, and with no read', async () => {
    const { client, hook } = setup()
    cutStreamsAfter = 5_000
    const progress: (string | undefined)[] = []
    const run = track(client.run('valuation/report', REPORT, { onJob: (job) => progress.push(job.status) }))
    await advance(100)
    await hook(`job_${jobs}`, 'processing')
    await until(() => expect(progress).toEqual(['pending', 'processing']))
    await advance(5_000)
    await advanceUntil(() => expect(count('events')).toBe(2))
    expect(pageRequests.filter((request) => request.kind === 'events')[1]!.lastEventId).toBeTruthy()
    await advance(100)
    await hook(`job_${jobs}`, 'completed')
    await until(() => expect(run.value).toMatchObject({ status: 'completed' }))
    expect(progress).toEqual(['pending', 'processing', 'completed'])
    expect(count('read')).toBe(0)
  })

  it('poll when the stream fails, and take it up again once it answers', async () => {
    const { client, hook } = setup()
    breakStreams = () => new Response('Bad gateway', { status: 502 })
    const run = track(client.run('valuation/report', REPORT))
    await advance(5_000)
    // No stream: the client's own pace, a read a second at first.
    expect(count('read')).toBeGreaterThanOrEqual(3)
    breakStreams = undefined
    await advance(30_000)
    const reads = count('read')
    await advance(30_000)
    // Back on the stream: no more reads while it is quiet.
    expect(count('read')).toBe(reads)
    await hook(`job_${jobs}`, 'completed')
    await until(() => expect(run.value).toMatchObject({ status: 'completed' }))
  })

  it('read the job now and then, should an event be lost on the way', async () => {
    const { client } = setup({ webhooks: undefined })
    breakStreams = () =>
      // A stream that stays open and says nothing: the proxy's events are lost somewhere between.
      new Response(new ReadableStream({ start: () => {} }), { headers: { 'content-type': 'text/event-stream' } })
    const run = track(client.run('valuation/report', REPORT))
    await advance(1_000)
    statusOf = () => 'completed'
    await advance(58_000)
    expect(count('read')).toBe(0)
    await advance(2_000)
    await until(() => expect(run.value).toMatchObject({ status: 'completed' }))
    expect(count('read')).toBe(1)
  })

  it('read a job whose first state does not come on the stream within 5 s', async () => {
    const { client } = setup({ webhooks: undefined })
    // A stream that stays open and says nothing, as one from a proxy that sends no first state.
    breakStreams = () => new Response(new ReadableStream({ start: () => {} }), { headers: { 'content-type': 'text/event-stream' } })
    const { jobId } = await client.start('valuation/report', REPORT)
    const waited = track(client.wait('valuation/report', jobId))
    statusOf = () => 'completed'
    await advance(4_900)
    expect(count('events')).toBe(1)
    expect(count('read')).toBe(0)
    await advance(200)
    await until(() => expect(waited.value).toMatchObject({ status: 'completed' }))
    expect(count('read')).toBe(1)
  })

  it('never trip their own proxy: a page starting 10 jobs a second and following them all, with the default rate', async () => {
    const { client, hook } = setup({ rate: undefined })
    const first = jobs + 1
    const waits: ReturnType<typeof track<Job>>[] = []
    for (let n = 0; n < 60; n++) {
      // Started, then followed as a page's job view follows it: all on the stream, which it joins.
      const started = client.start('valuation/report', REPORT)
      waits.push(track(started.then(({ jobId }) => client.wait('valuation/report', jobId))))
      await advance(100)
      // Each job ends two seconds after it started, told by its webhook.
      if (n >= 20) await hook(`job_${first + n - 20}`, 'completed')
    }
    for (let n = 40; n < 60; n++) await hook(`job_${first + n}`, 'completed')
    await until(() => expect(waits.every((wait) => wait.value?.status === 'completed')).toBe(true))
    expect(refusals).toBe(0)
    expect(count('call')).toBe(60)
    // One stream for the page's life: every job started joined it with its first state, none reopened it, none was read.
    expect(count('events')).toBe(1)
    expect(count('read')).toBe(0)
  }, 30_000)

  it('carry on the stream the jobs started while it was still opening: one stream, no read', async () => {
    const { client, hook } = setup()
    let arrive = () => {}
    holdStreams = new Promise((resolve) => (arrive = resolve))
    const waits: ReturnType<typeof track<Job>>[] = []
    const handles: string[] = []
    for (let n = 0; n < 5; n++) {
      const { jobId } = await client.start('valuation/report', REPORT)
      handles.push(jobId)
      waits.push(track(client.wait('valuation/report', jobId)))
      await advance(100)
    }
    // The first job's stream was asked for at once, and has not answered yet.
    expect(count('events')).toBe(1)
    arrive()
    await advance(100)
    for (let n = 0; n < 5; n++) await hook(`job_${jobs - 4 + n}`, 'completed')
    await until(() => expect(waits.every((wait) => wait.value?.status === 'completed')).toBe(true))
    expect(count('events')).toBe(1)
    expect(count('read')).toBe(0)
  })

  it('poll a job the stream cannot carry (50 in flight on it already), from the moment it says so', async () => {
    const { client, hook } = setup()
    const waits: ReturnType<typeof track<Job>>[] = []
    for (let n = 0; n < 51; n++) {
      waits.push(track(client.start('valuation/report', REPORT).then(({ jobId }) => client.wait('valuation/report', jobId))))
      await advance(100)
    }
    await advance(1_500)
    await hook(`job_${jobs}`, 'completed')
    // Polled as with no stream: a read as it was told, then one a second while the job is young.
    await advance(1_100)
    await until(() => expect(waits[50]!.value?.status).toBe('completed'))
    expect(count('read')).toBeLessThanOrEqual(3)
    expect(count('events')).toBe(1)
    expect(waits.slice(0, 50).every((wait) => wait.value === undefined && wait.error === undefined)).toBe(true)
  }, 30_000)

  it('never open a stream on another origin, whatever the answer names', async () => {
    const service: typeof fetch = async (input, init) => {
      pageRequests.push({ kind: new URL(String(input)).pathname.endsWith('/events') ? 'events' : init?.method === 'POST' ? 'call' : 'read', lastEventId: null })
      const headers = { 'x-tools-events': 'https://elsewhere.test/events' }
      if (init?.method === 'POST') return Response.json({ jobId: 'job_1', status: 'pending', requestId: 'r' }, { status: 202, headers })
      return Response.json({ jobId: 'job_1', status: count('read') > 2 ? 'completed' : 'processing' }, { headers })
    }
    const client = createToolsClient({ baseUrl: `${SITE}/api/tools`, retry: false, fetch: service })
    const run = track(client.run('valuation/report', REPORT))
    await advance(10_000)
    expect(run.value).toMatchObject({ status: 'completed' })
    expect(count('events')).toBe(0)
  })
})

describe('useJob behind a proxy with webhooks', () => {
  it('shows the end a webhook told, with no new props and no polling', async () => {
    const { client, hook } = setup()
    const { jobId } = await client.start('valuation/report', REPORT)
    function Status() {
      const { data } = useJob('valuation/report', jobId)
      return <p>{data?.status ?? 'loading'}</p>
    }
    render(
      <ToolsProvider client={client} user="alice">
        <Status />
      </ToolsProvider>,
    )
    await advance(200)
    // Its first state comes on the stream: the creation's answer the proxy keeps, with no read at all.
    expect(screen.getByText('pending')).toBeInTheDocument()
    await advance(20_000)
    await hook(`job_${jobs}`, 'completed')
    await until(() => expect(screen.getByText('completed')).toBeInTheDocument())
    expect(count('read')).toBe(0)
    expect(count('events')).toBe(1)
    expect(serviceReads).toBe(0)
  })
})

describe('the simulated service’s webhooks', () => {
  /** The simulated service in process, sending its webhooks to `send`. */
  function simulated(send: (request: Request) => Promise<Response> | Response, jobDuration = 9000) {
    const service = createMockService({ jobDurationMs: jobDuration, webhooks: { url: `${SITE}/api/tools/webhooks`, secret: WEBHOOK_SECRET, send } })
    return { service, serviceFetch: service.fetch }
  }

  it('sends each change of a job, signed as Standard Webhooks, with the body a read would give', async () => {
    const deliveries: { headers: Record<string, string>; body: string }[] = []
    const { service, serviceFetch } = simulated(async (request) => {
      deliveries.push({ headers: Object.fromEntries(request.headers), body: await request.text() })
      return new Response(null, { status: 204 })
    })
    const client = createToolsClient({ baseUrl: service.baseUrl, apiKey: MOCK_KEYS.demo, fetch: serviceFetch })
    const { jobId } = await client.start('valuation/report', REPORT)
    await advance(9000, 500)
    // Signing is off the fake clock: the deliveries land between its steps.
    await until(() => expect(deliveries).toHaveLength(2))
    const reference = new Webhook(WEBHOOK_SECRET)
    const payloads = deliveries.map((delivery) => reference.verify(delivery.body, delivery.headers) as { type: string; data: { jobId: string; status: string } })
    expect(payloads.map((payload) => [payload.type, payload.data.jobId, payload.data.status])).toEqual([
      ['job.updated', jobId, 'processing'],
      ['job.updated', jobId, 'completed'],
    ])
    // The end carries the result, as a read of the job would.
    expect(await client.job('valuation/report', jobId)).toMatchObject({ data: payloads[1]!.data })
  })

  it('sends a delivery the endpoint did not take again, and stops at reset()', async () => {
    let tries = 0
    const { service, serviceFetch } = simulated(() => new Response(null, { status: ++tries < 3 ? 503 : 204 }), 300)
    const client = createToolsClient({ baseUrl: service.baseUrl, apiKey: MOCK_KEYS.demo, fetch: serviceFetch })
    await client.start('valuation/report', REPORT)
    // Two changes (at 100 and 300 ms), each refused once: four tries in all, the last two a second later.
    await advance(1_000, 100)
    await until(() => expect(tries).toBe(2))
    await advance(1_000, 100)
    await until(() => expect(tries).toBe(4))
    await advance(60_000, 1000)
    expect(tries).toBe(4)
    await client.start('valuation/report', REPORT)
    service.reset()
    await advance(10_000, 500)
    expect(tries).toBe(4)
  })

  it('drives a page behind the proxy from creation to end, with no poll of the service', async () => {
    // The proxy's answers are waited for between steps (settle), as the page's are in setup().
    const answered = async (answer: Promise<Response>) => {
      inFlight++
      try {
        return await answer
      } finally {
        inFlight--
      }
    }
    const { service, serviceFetch } = simulated((request) => answered(proxy.handle(request)))
    const proxy = createToolsProxy({
      baseUrl: service.baseUrl,
      apiKey: MOCK_KEYS.demo,
      basePath: '/api/tools',
      secret: 'a-test-secret-of-at-least-thirty-two-characters',
      authorize: () => ({ user: 'alice', tools: TOOLS.map((tool) => tool.id) }),
      fetch: serviceFetch,
      webhooks: { secret: WEBHOOK_SECRET },
      onError: () => {},
    })
    const client = createToolsClient({ baseUrl: `${SITE}/api/tools`, fetch: (input, init) => answered(proxy.handle(new Request(input, init))) })
    const seen: string[] = []
    const run = track(client.run('valuation/report', REPORT, { onJob: (job) => seen.push(job.status) }))
    await advance(9_500, 100)
    await until(() => expect(run.value?.artifacts.length).toBeGreaterThan(0))
    // The job as it joined the stream (50 ms after its creation), then each change its webhooks told.
    expect(seen).toEqual(['pending', 'processing', 'completed'])
    expect(service.log.filter((entry) => entry.kind === 'poll')).toHaveLength(0)
    // Its files come through the proxy, signed for this user.
    const file = await client.artifact(run.value!.artifacts[0]!)
    expect(file.size).toBeGreaterThan(0)
  })
})
