// @vitest-environment node
import { http, HttpResponse } from 'msw'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS, exampleInput } from '../src/mock/index.js'
import { VALIDATION_MESSAGES } from '../src/client/errors.js'
import { isToolsError, TOOLS, ToolsError, type ToolId } from '../src/tools/index.js'
import { fakeClock } from './support/clock.js'
import { fastClient, pngFile, setupMockService } from './support/service.js'

const { service, server } = setupMockService()
// Fake time for the tests that measure it: the client's waits and the service's clock move together.
const clock = fakeClock(server, { each: false })
function onFakeTime(now?: Date) {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now })
  onTestFinished(() => void vi.useRealTimers())
}
const demo = () => fastClient(MOCK_KEYS.demo)

async function failure(promise: Promise<unknown>): Promise<ToolsError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection')
    },
    (reason: unknown) => reason,
  )
  expect(isToolsError(error)).toBe(true)
  return error as ToolsError
}

const calls = (tool?: string) => service.log.filter((entry) => entry.kind === 'call' && (!tool || entry.tool === tool))

describe('every tool through the client', () => {
  it.each(TOOLS.map((tool) => [tool.id, tool] as const))('%s', async (id, tool) => {
    const outcome = await demo().run(id as ToolId, exampleInput(id as ToolId) as never)
    expect(outcome.tool).toBe(id)
    if (tool.mode === 'deferred') {
      expect(outcome).toMatchObject({ phase: 'succeeded', status: 'completed' })
      expect(service.log.some((entry) => entry.kind === 'poll' && entry.tool === id)).toBe(true)
    }
    for (const link of outcome.artifacts) expect(link.startsWith(`${MOCK_BASE_URL}/artifacts/`)).toBe(true)
    const [call] = calls(id)
    expect(call).toMatchObject({ method: 'POST', status: tool.mode === 'sync' ? 200 : 202 })
    expect(call!.contentType).toContain(tool.body === 'json' ? 'application/json' : 'multipart/form-data')
    expect(service.bills()).toBe(1)
  })

  it('creates a PDF from a listing and resolves the succeeded job with its link', async () => {
    const job = await demo().run('pdf/create', { objectId: 'obj_demo', language: 'en' })
    expect(job.phase).toBe('succeeded')
    expect(job.artifacts).toHaveLength(1)
    const pdf = await demo().artifact(job.artifacts[0]!)
    expect(pdf.type).toBe('application/pdf')
    expect(new TextDecoder().decode(await pdf.slice(0, 5).arrayBuffer())).toBe('%PDF-')
  })

  it('answers the rent estimate at once', async () => {
    const result = await demo().run('valuation/rent', { propertyCategory: 'flat', totalArea: 54, city: 'Kazan' })
    expect(result.data).toBeTypeOf('object')
    expect(calls()).toHaveLength(1)
  })

  it('sends a file tool as multipart: the file in its part, the options as JSON in `data`', async () => {
    const seen: { parts: string[]; data: unknown }[] = []
    server.events.on('request:start', async ({ request }) => {
      if (request.method !== 'POST') return
      const form = await request.clone().formData()
      seen.push({ parts: [...form.keys()], data: JSON.parse(String(form.get('data'))) })
    })
    await demo().run('photo/enhance', { file: pngFile(), mode: 'hdr' })
    server.events.removeAllListeners()
    expect(seen).toEqual([{ parts: ['data', 'image'], data: { mode: 'hdr' } }])
  })
})

describe('input is checked before anything is sent', () => {
  it('refuses bad rent input with one issue per field', async () => {
    const error = await failure(
      demo().run('valuation/rent', { propertyCategory: '', totalArea: -3 } as never),
    )
    expect(error.kind).toBe('validation')
    expect(error.issues.map((issue) => [issue.field, issue.code])).toEqual([
      ['propertyCategory', 'required'],
      ['totalArea', 'not-positive'],
      ['city', 'required'],
    ])
    expect(error.issues[1]!.message).toBe(VALIDATION_MESSAGES['not-positive'])
    expect(service.log).toHaveLength(0)
  })

  it('needs exactly one of objectId and collectionId', async () => {
    const none = await failure(demo().run('site/create', {} as never))
    expect(none.issues).toEqual([expect.objectContaining({ field: 'objectId', code: 'listing-missing' })])
    const both = await failure(demo().run('pdf/create', { objectId: 'a', collectionId: 'b' }))
    expect(both.issues).toEqual([expect.objectContaining({ field: 'collectionId', code: 'listing-both' })])
    expect(service.log).toHaveLength(0)
  })

  it('needs a file for a file tool, and passes other fields through untouched', async () => {
    const error = await failure(demo().run('video/create', { title: 'x' } as never))
    expect(error.issues).toEqual([expect.objectContaining({ field: 'file', code: 'required' })])
    expect(await demo().validate('valuation/express', { anything: [1, 2] })).toEqual([])
    expect(service.log).toHaveLength(0)
  })

  it('refuses an unknown tool, and start() on a synchronous one', async () => {
    expect((await failure(demo().run('no/such' as ToolId, {} as never))).issues[0]!.code).toBe('unknown-tool')
    expect((await failure(demo().start('valuation/rent' as never, {} as never))).issues[0]!.code).toBe('sync-tool')
    expect(service.log).toHaveLength(0)
  })
})

describe('every error kind', () => {
  const rent = { propertyCategory: 'flat', totalArea: 40, city: 'Omsk' }

  it('unauthorized: an unknown key', async () => {
    expect((await failure(fastClient('nope').run('valuation/rent', rent))).kind).toBe('unauthorized')
  })

  it('billing: nothing left in the wallet, and nothing billed', async () => {
    const error = await failure(fastClient(MOCK_KEYS.broke).run('valuation/rent', rent))
    expect(error).toMatchObject({ kind: 'billing', status: 402, tool: 'valuation/rent' })
    expect(error.requestId).toMatch(/^req_/)
    expect(calls()).toHaveLength(1)
  })

  it('scope: the missing scope is named from the catalogue', async () => {
    const error = await failure(fastClient(MOCK_KEYS.limited).run('pdf/create', { objectId: 'obj_demo' }))
    expect(error).toMatchObject({ kind: 'scope', status: 403, scope: 'tools:pdf' })
  })

  it('listing-access: told apart from the scope error', async () => {
    const error = await failure(demo().run('site/create', { objectId: 'obj_other' }))
    expect(error.kind).toBe('listing-access')
    expect(error.scope).toBeUndefined()
  })

  it('listing tool 403 with a body nested thousands deep: still a typed error', async () => {
    const depth = 5000
    const nested = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
    const deep = `{"message":"This listing is not yours: access denied","detail":${nested}}`
    server.use(
      http.post(`${MOCK_BASE_URL}/site/create`, () => new HttpResponse(deep, { status: 403, headers: { 'Content-Type': 'application/json' } })),
    )
    const error = await failure(demo().run('site/create', { objectId: 'obj_demo' }))
    expect(error).toMatchObject({ kind: 'listing-access', status: 403 })
  })

  it('unexpected: anything else that fails inside a call is a ToolsError of its own kind, not network', async () => {
    const client = fastClient(MOCK_KEYS.demo, {
      interpret: {
        artifacts: () => {
          throw new TypeError('broken override')
        },
      },
    })
    const error = await failure(client.run('valuation/rent', exampleInput('valuation/rent')))
    expect(error).toMatchObject({ kind: 'unexpected', tool: 'valuation/rent', message: 'broken override' })
    expect(error.cause).toBeInstanceOf(TypeError)
  })

  it('scope errors always name their scope: a 403 where no scope is missing is bad-request', async () => {
    server.use(http.post(`${MOCK_BASE_URL}/valuation/express`, () => HttpResponse.json({ message: 'not for you' }, { status: 403 })))
    const error = await failure(demo().run('valuation/express', {}))
    expect(error).toMatchObject({ kind: 'bad-request', status: 403, scope: undefined })
    const missing = await failure(fastClient(MOCK_KEYS.limited).run('pdf/create', { objectId: 'obj_demo' }))
    expect(missing).toMatchObject({ kind: 'scope', scope: 'tools:pdf' })
  })

  it('a rate limit always says how long to wait: the backoff where Retry-After is unreadable', async () => {
    server.use(http.post(`${MOCK_BASE_URL}/valuation/rent`, () => HttpResponse.json({}, { status: 429, headers: { 'Retry-After': 'soon' } })))
    const client = fastClient(MOCK_KEYS.demo, { retry: { baseDelay: 1, maxDelay: 5, maxWait: 0 } })
    const error = await failure(client.run('valuation/rent', exampleInput('valuation/rent')))
    expect(error.kind).toBe('rate-limit')
    expect(error.retryAfter).toEqual(expect.any(Number))
  })

  it('bad-request: a 400', async () => {
    server.use(http.post(`${MOCK_BASE_URL}/valuation/express`, () => HttpResponse.json({ message: 'no' }, { status: 400 })))
    const error = await failure(demo().run('valuation/express', {}))
    expect(error).toMatchObject({ kind: 'bad-request', status: 400 })
    expect(error.message).toContain('no')
  })

  it('not-found: another key’s job', async () => {
    const { jobId } = await demo().start('text/generate', { prompt: 'hi' })
    const error = await failure(fastClient(MOCK_KEYS.other).job('text/generate', jobId))
    expect(error).toMatchObject({ kind: 'not-found', status: 404 })
    expect(service.log.filter((entry) => entry.kind === 'poll')).toHaveLength(1)
  })

  it('rate-limit: surfaced when Retry-After is beyond what the client waits', async () => {
    service.inject({ fault: 'rate-limit', retryAfterMs: 120_000, times: 1 })
    const error = await failure(demo().run('valuation/rent', rent))
    expect(error).toMatchObject({ kind: 'rate-limit', status: 429, retryAfter: 120_000 })
  })

  it('server: an HTML error page from a proxy still gives a typed error', async () => {
    service.inject({ fault: 'html-error', times: 10 })
    const error = await failure(demo().run('valuation/report', {}))
    expect(error).toMatchObject({ kind: 'server', status: 502 })
    expect(String(error.body)).toContain('<')
  })

  it('server: a 202 without a jobId is malformed, not a crash', async () => {
    server.use(http.post(`${MOCK_BASE_URL}/text/generate`, () => HttpResponse.json({ ok: true }, { status: 202 })))
    expect((await failure(demo().run('text/generate', {}))).kind).toBe('server')
  })

  it('network: the service cannot be reached', async () => {
    service.inject({ fault: 'network', times: 10 })
    expect((await failure(demo().run('valuation/report', {}))).kind).toBe('network')
  })

  it('job-failed: a job that ends in failed', async () => {
    service.setOutcome(() => 'failed')
    const error = await failure(demo().run('content/generate', {}))
    expect(error).toMatchObject({ kind: 'job-failed', tool: 'content/generate' })
    expect(error.body).toMatchObject({ status: 'failed' })
  })

  it('aborted: a signal stops the wait, and no poll follows', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const polls = () => service.log.filter((entry) => entry.kind === 'poll')
      const controller = new AbortController()
      // Reads come a third of pollInterval apart at first: one at 20 ms, the next at 40 ms.
      const running = demo().run('avatar/video', {}, { signal: controller.signal, pollInterval: 60 })
      // vi.waitFor runs on the real clock; only the client's and the service's time is fake.
      await vi.waitFor(() => expect(calls()).toHaveLength(1), { interval: 1 })
      await vi.advanceTimersByTimeAsync(20)
      await vi.waitFor(() => expect(polls()).toHaveLength(1), { interval: 1 })
      controller.abort()
      expect((await failure(running)).kind).toBe('aborted')
      // Ten poll intervals later, still the one read from before the abort.
      await vi.advanceTimersByTimeAsync(200)
      // Real turns of the event loop: a poll sent in those 200 ms would have been answered by now.
      for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve))
      expect(polls()).toHaveLength(1)
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('retries never bill twice', () => {
  it('429 then success: same Idempotency-Key, one bill', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 0, times: 1 })
    const job = await demo().run('video/create', exampleInput('video/create'))
    expect(job.phase).toBe('succeeded')
    const posts = calls()
    expect(posts.map((entry) => entry.status)).toEqual([429, 202])
    expect(posts[0]!.idempotencyKey).toBeTruthy()
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey)
    expect(service.bills()).toBe(1)
  })

  it('Retry-After as an HTTP date is honoured', async () => {
    // On a whole second, so the date (which has no milliseconds) says exactly two seconds.
    onFakeTime(new Date('2026-03-01T12:00:00.000Z'))
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: new Date(Date.now() + 2000), times: 1 })
    const rent = demo().run('valuation/rent', { propertyCategory: 'flat', totalArea: 40, city: 'Omsk' })
    await clock.advance(1990)
    expect(calls().map((entry) => entry.status)).toEqual([429])
    await clock.drive(rent)
    expect(calls().map((entry) => entry.status)).toEqual([429, 200])
    expect(calls()[1]!.at - calls()[0]!.at).toBeGreaterThanOrEqual(2000)
  })

  it('a lost answer to a job-creating POST is retried with its key and billed once', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'lost', times: 1 })
    const job = await demo().run('pdf/create', { objectId: 'obj_demo' })
    expect(job.phase).toBe('succeeded')
    const posts = calls()
    expect(posts).toHaveLength(2)
    expect(posts[1]!.idempotencyKey).toBe(posts[0]!.idempotencyKey)
    expect(posts[1]!.replay).toBe(true)
    expect(service.bills()).toBe(1)
  })

  it('a caller’s own Idempotency-Key is sent and respected', async () => {
    const client = demo()
    const first = await client.start('text/generate', { prompt: 'a' }, { idempotencyKey: 'mine-1' })
    const again = await client.start('text/generate', { prompt: 'a' }, { idempotencyKey: 'mine-1' })
    expect(again.jobId).toBe(first.jobId)
    expect(calls().map((entry) => entry.idempotencyKey)).toEqual(['mine-1', 'mine-1'])
    expect(service.bills()).toBe(1)
  })

  it('a lost synchronous answer is not resent: it may already be billed', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'lost', times: 1 })
    const error = await failure(demo().run('valuation/rent', { propertyCategory: 'flat', totalArea: 40, city: 'Omsk' }))
    expect(error.kind).toBe('network')
    expect(calls()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('5xx on a synchronous POST is not retried; on a poll it is', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'server-error', times: 1 })
    expect((await failure(demo().run('valuation/express', {}))).kind).toBe('server')
    expect(calls()).toHaveLength(1)
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 2 })
    expect((await demo().run('text/generate', {})).phase).toBe('succeeded')
  })

  it('402, 403 and 400 are never retried', async () => {
    let posts = 0
    server.events.on('request:start', ({ request }) => void (posts += request.method === 'POST' ? 1 : 0))
    await failure(fastClient(MOCK_KEYS.broke).run('valuation/report', {}))
    await failure(fastClient(MOCK_KEYS.limited).run('valuation/report', {}))
    server.use(http.post(`${MOCK_BASE_URL}/text/generate`, () => HttpResponse.json({}, { status: 400 })))
    await failure(demo().run('text/generate', {}))
    server.events.removeAllListeners()
    expect(posts).toBe(3)
  })
})

describe('polling', () => {
  it.each(['completed', 'done', 'success'] as const)('goes through the intermediate status to %s', async (status) => {
    onFakeTime()
    service.setOutcome(() => status)
    const seen: string[] = []
    const job = await clock.drive(demo().run('floorplan/create', exampleInput('floorplan/create'), {
      onJob: (read) => seen.push(read.status),
    }))
    expect(job).toMatchObject({ status, phase: 'succeeded' })
    expect(seen).toContain('processing')
    expect(seen.at(-1)).toBe(status)
    expect(service.bills()).toBe(1)
  })

  it('wait() on an existing job, and an unknown status counts as running', async () => {
    server.use(
      http.get(`${MOCK_BASE_URL}/valuation/report/jobs/:id`, () => HttpResponse.json({ status: 'rendering', progress: 40 }), {
        once: true,
      }),
    )
    const client = demo()
    const { jobId } = await client.start('valuation/report', {})
    const phases: string[] = []
    const job = await client.wait('valuation/report', jobId, { onJob: (read) => phases.push(`${read.status}:${read.phase}:${read.progress ?? ''}`) })
    expect(phases[0]).toBe('rendering:running:0.4')
    expect(job.phase).toBe('succeeded')
  })
})

describe('the key', () => {
  it('is asked for before every request when given as a function; no key, no header', async () => {
    const apiKey = vi.fn(async () => MOCK_KEYS.demo)
    await fastClient(apiKey).run('valuation/express', {})
    expect(apiKey).toHaveBeenCalledTimes(1)
    const headers: (string | null)[] = []
    server.events.on('request:start', ({ request }) => void headers.push(request.headers.get('authorization')))
    await failure(fastClient(undefined).run('valuation/express', {}))
    server.events.removeAllListeners()
    expect(headers).toEqual([null])
  })

  it('goes to the service’s origin only: a link elsewhere is refused before any request', async () => {
    const error = await failure(demo().artifact('https://evil.example/artifacts/x.png'))
    expect(error).toMatchObject({ kind: 'validation', issues: [expect.objectContaining({ field: 'url', code: 'foreign-url' })] })
    expect(service.log).toHaveLength(0)
  })

  it('artifactFile: the name from Content-Disposition, filename* first', async () => {
    const at = (name: string) => `${MOCK_BASE_URL}/artifacts/named/${name}`
    server.use(
      http.get(`${MOCK_BASE_URL}/artifacts/named/:case`, ({ params }) => {
        const header = {
          extended: `attachment; filename="fallback.pdf"; filename*=UTF-8''%D0%BE%D1%82%D1%87%D1%91%D1%82%20%E2%84%961.pdf`,
          plain: 'attachment; filename="report \\"final\\".pdf"',
          none: undefined,
        }[params.case as string]
        return new HttpResponse('%PDF-1.4', { headers: { 'Content-Type': 'application/pdf', ...(header ? { 'Content-Disposition': header } : {}) } })
      }),
    )
    expect((await demo().artifactFile(at('extended'))).fileName).toBe('отчёт №1.pdf')
    expect((await demo().artifactFile(at('plain'))).fileName).toBe('report "final".pdf')
    const none = await demo().artifactFile(at('none'))
    expect(none.fileName).toBeUndefined()
    expect(none.blob.type).toBe('application/pdf')
  })

  it('binds artifacts to the key that made them', async () => {
    const job = await demo().run('photo/enhance', { file: pngFile() })
    const link = job.artifacts[0]!
    expect((await demo().artifact(link)).type).toBe('image/png')
    expect((await failure(fastClient(MOCK_KEYS.other).artifact(link))).kind).toBe('not-found')
  })
})
