// @vitest-environment node
import { setupServer } from 'msw/node'
import { inflateSync } from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { defaultInterpretation, type ToolDefinition } from '../src/client/index.js'
import {
  createMockService,
  exampleInput,
  MOCK_BASE_URL,
  MOCK_KEYS,
  MOCK_LISTINGS,
  type MockAccount,
} from '../src/mock/index.js'
import { createToolsClient, getTool, TOOLS, type ToolId } from '../src/tools/index.js'

// Jobs take 300 ms of (faked) time: pending for the first 100, then processing.
const JOB_MS = 300
const service = createMockService({ jobDurationMs: JOB_MS })
const server = setupServer(...service.handlers)

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterEach(() => {
  vi.useRealTimers()
  server.resetHandlers()
  service.reset()
})
afterAll(() => server.close())

interface Send {
  key?: string | null
  json?: unknown
  form?: FormData
  headers?: Record<string, string>
}

/** A POST to a tool path (or any path below the base) with the demo key unless told otherwise. */
function post(path: string, { key = MOCK_KEYS.demo, json, form, headers }: Send = {}) {
  return fetch(MOCK_BASE_URL + path, {
    method: 'POST',
    headers: {
      ...(key ? { Authorization: `Bearer ${key}` } : {}),
      ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...headers,
    },
    body: form ?? (json === undefined ? undefined : JSON.stringify(json)),
  })
}

function get(pathOrUrl: string, key: string | null = MOCK_KEYS.demo) {
  return fetch(pathOrUrl.startsWith('http') ? pathOrUrl : MOCK_BASE_URL + pathOrUrl, {
    headers: key ? { Authorization: `Bearer ${key}` } : {},
  })
}

/** A tool's input encoded as its catalogue row says: JSON, or the file in its part and options in `data`. */
function callTool(id: ToolId, input: Record<string, unknown>, send: Omit<Send, 'json' | 'form'> = {}) {
  const tool: ToolDefinition = getTool(id)
  if (tool.body === 'json') return post(tool.path, { ...send, json: input })
  const { file, ...options } = input as { file: File }
  const form = new FormData()
  form.append('data', JSON.stringify(options))
  form.append(tool.fileField ?? 'file', file, file.name)
  return post(tool.path, { ...send, form })
}

const rent = { propertyCategory: 'apartment', totalArea: 80, city: 'Berlin' }

/** Freezes `Date` at a start time and returns a function that moves it on. */
function fakeClock() {
  vi.useFakeTimers({ toFake: ['Date'] })
  let now = Date.UTC(2025, 0, 1)
  vi.setSystemTime(now)
  return (ms: number) => vi.setSystemTime((now += ms))
}

async function startJob(id: ToolId, key = MOCK_KEYS.demo): Promise<string> {
  const response = await callTool(id, exampleInput(id) as Record<string, unknown>, { key })
  expect(response.status).toBe(202)
  return ((await response.json()) as { jobId: string }).jobId
}

async function finishedJob(id: ToolId, key = MOCK_KEYS.demo): Promise<Record<string, unknown>> {
  const advance = fakeClock()
  const jobId = await startJob(id, key)
  advance(JOB_MS)
  const response = await get(`${getTool(id).path}/jobs/${jobId}`, key)
  expect(response.status).toBe(200)
  return (await response.json()) as Record<string, unknown>
}

const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer())
const ascii = (bytes: Uint8Array) => new TextDecoder('latin1').decode(bytes)

describe('the catalogue', () => {
  it.each(TOOLS.map((tool) => [tool.id, tool] as const))('%s answers as its row says', async (id, tool) => {
    const advance = fakeClock()
    const response = await callTool(id, exampleInput(id) as Record<string, unknown>)
    const body = (await response.json()) as Record<string, unknown>
    expect(response.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{16}$/)
    if (tool.mode === 'sync') {
      expect(response.status).toBe(200)
      expect(body.requestId).toBe(response.headers.get('x-request-id'))
    } else {
      expect(response.status).toBe(202)
      expect(body).toEqual({ jobId: expect.stringMatching(/^job_/), status: 'pending', requestId: expect.stringMatching(/^req_/) })
      advance(JOB_MS)
      const job = (await (await get(`${tool.path}/jobs/${String(body.jobId)}`)).json()) as Record<string, unknown>
      expect(job).toMatchObject({ jobId: body.jobId, status: 'completed', progress: 1, requestId: body.requestId })
      expect(job.result).toBeTypeOf('object')
    }
    const links = defaultInterpretation.artifacts(body, `${MOCK_BASE_URL}/artifacts/`)
    for (const link of links) expect((await get(link)).status).toBe(200)
    expect(service.bills('demo')).toBe(1)
  })

  it('gives the rent from the input, plausibly', async () => {
    const small = (await (await post('/valuation/rent', { json: { ...rent, totalArea: 40 } })).json()) as {
      rent: { monthly: number; currency: string }
    }
    const large = (await (await post('/valuation/rent', { json: rent })).json()) as typeof small
    expect(small.rent.currency).toBe('EUR')
    expect(large.rent.monthly).toBe(small.rent.monthly * 2)
    expect(small.rent.monthly).toBeGreaterThan(300)
  })

  it('writes figures as a person would: no float residue such as 15.100000000000001', async () => {
    for (const city of ['Berlin', 'Kazan', 'Ufa', 'Moscow', 'Paris', 'Riga', 'Oslo', 'Rome']) {
      for (const propertyCategory of ['apartment', 'house', 'flat']) {
        const body = (await (await post('/valuation/rent', { json: { ...rent, city, propertyCategory } })).json()) as { pricePerSquareMetre: number }
        expect(String(body.pricePerSquareMetre), `${city}/${propertyCategory}`).toMatch(/^\d+(\.\d)?$/)
      }
    }
    for (const name of ['a.pdf', 'plan.pdf', 'contract-2024.pdf', 'x.pdf']) {
      const form = new FormData()
      form.append('file', new File(['%PDF-1.4'], name, { type: 'application/pdf' }))
      form.append('data', '{}')
      const body = (await (await post('/draft/extract', { form })).json()) as { fields: { totalArea: number } }
      expect(String(body.fields.totalArea), name).toMatch(/^\d+(\.5)?$/)
    }
  })

  it('answers anything else under the base with 404, and nothing is billed', async () => {
    expect((await get('/nowhere')).status).toBe(404)
    expect((await get('/valuation/rent/jobs/job_1')).status).toBe(404)
    expect(service.log.at(-1)).toMatchObject({ kind: 'other', billed: null })
  })
})

describe('keys and scopes', () => {
  it('401 without a key or with an unknown one, in the error shape', async () => {
    for (const key of [null, 'nope']) {
      const response = await post('/valuation/express', { key, json: {} })
      expect(response.status).toBe(401)
      const body = (await response.json()) as { error: { code: string }; requestId: string }
      expect(body.error.code).toBe('unauthorized')
      expect(body.requestId).toBe(response.headers.get('x-request-id'))
    }
    expect(service.bills()).toBe(0)
  })

  it('403 names the missing scope; tools the key may use still answer', async () => {
    const refused = await post('/pdf/create', { key: MOCK_KEYS.limited, json: { objectId: MOCK_LISTINGS.demoObject } })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      error: { code: 'scope_missing', message: 'This key lacks the scope tools:pdf.', scope: 'tools:pdf' },
      requestId: expect.stringMatching(/^req_/),
    })
    expect((await post('/valuation/rent', { key: MOCK_KEYS.limited, json: rent })).status).toBe(200)
    expect((await post('/valuation/express', { key: MOCK_KEYS.limited, json: {} })).status).toBe(200)
    expect(service.bills('demo')).toBe(2)
  })
})

describe('billing', () => {
  const account: MockAccount = {
    id: 'tight',
    keys: { 'tight-key': [] },
    wallet: { subscriptionCalls: 1, bundleCalls: 1, balanceCents: 120, callPriceCents: 50, currency: 'EUR' },
  }

  it('pays subscription, then bundle, then pay as you go; then 402', async () => {
    const tight = createMockService({ accounts: [account] })
    server.use(...tight.handlers)
    const statuses = []
    for (let call = 0; call < 5; call++) statuses.push((await post('/valuation/express', { key: 'tight-key', json: {} })).status)
    expect(statuses).toEqual([200, 200, 200, 200, 402])
    expect(tight.log.map((entry) => entry.billed)).toEqual(['subscription', 'bundle', 'payg', 'payg', null])
    expect(tight.account('tight')).toEqual({ ...account.wallet, subscriptionCalls: 0, bundleCalls: 0, balanceCents: 20 })
    expect(tight.bills('tight')).toBe(4)
    tight.reset()
    expect(tight.account('tight')).toEqual(account.wallet)
  })

  it('402 for the broke account, with the error shape; nothing is taken', async () => {
    const response = await post('/valuation/report', { key: MOCK_KEYS.broke, json: {} })
    expect(response.status).toBe(402)
    const body = (await response.json()) as { error: { code: string; message: string }; requestId: string }
    expect(body.error.code).toBe('insufficient_funds')
    expect(body.requestId).toMatch(/^req_/)
    expect(service.bills()).toBe(0)
  })

  it('each key meets what its fixture says with the example input of every tool: broke 402, limited 403 but rent, other refused the demo listing', async () => {
    const outcome = async (key: string) => {
      const statuses: Record<string, number> = {}
      for (const tool of TOOLS) {
        statuses[tool.id] = (await callTool(tool.id, exampleInput(tool.id) as Record<string, unknown>, { key })).status
      }
      return statuses
    }
    const every = (status: number, except: Record<string, number> = {}) => Object.fromEntries(TOOLS.map((tool) => [tool.id, except[tool.id] ?? (tool.mode === 'sync' ? status : status === 200 ? 202 : status)]))
    expect(await outcome(MOCK_KEYS.demo)).toEqual(every(200))
    expect(await outcome(MOCK_KEYS.broke)).toEqual(every(402))
    // `limited` holds only tools:rent; valuation/express needs no scope.
    expect(await outcome(MOCK_KEYS.limited)).toEqual(every(403, { 'valuation/rent': 200, 'valuation/express': 200 }))
    expect(await outcome(MOCK_KEYS.other)).toEqual(every(200, { 'site/create': 403, 'pdf/create': 403 }))
  })

  it.each([
    ['limited', 'pdf/create', 'scope'],
    ['norent', 'valuation/rent', 'scope'],
    ['broke', 'valuation/rent', 'billing'],
    ['other', 'pdf/create', 'listing-access'],
    ['throttled', 'valuation/rent', 'rate-limit'],
    ['failing', 'pdf/create', 'job-failed'],
    ['down', 'valuation/rent', 'server'],
    ['unknown', 'valuation/rent', 'unauthorized'],
  ] as const)('the key %s meets, on %s, the client’s %s error', async (name, tool, kind) => {
    const client = createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS[name], retry: false, pollInterval: 5 })
    await expect(client.run(tool, exampleInput(tool))).rejects.toMatchObject({ kind, ...(name === 'norent' && { scope: 'tools:rent' }) })
    // Only a job that ran and failed was paid for.
    expect(service.bills()).toBe(kind === 'job-failed' ? 1 : 0)
  })

  it('never bills polls or downloads', async () => {
    const job = await finishedJob('photo/enhance')
    const url = (job.result as { url: string }).url
    await get(url)
    await get(`/photo/enhance/jobs/${String(job.jobId)}`)
    expect(service.bills()).toBe(1)
    expect(service.account('demo').subscriptionCalls).toBe(999)
  })
})

describe('listings', () => {
  const scopeRefusal = { status: 403, tool: getTool('pdf/create') }

  it.each([
    ['another account’s listing', { objectId: MOCK_LISTINGS.otherObject }, 'The listing obj_other does not belong to this account.'],
    ['another account’s collection', { collectionId: MOCK_LISTINGS.otherCollection }, 'The collection col_other does not belong to this account.'],
    ['an unknown listing', { objectId: 'obj_nobody' }, 'The listing obj_nobody does not belong to this account.'],
  ])('%s is the listing access error, never worded as a scope', async (_, listing, message) => {
    for (const tool of ['pdf/create', 'site/create'] as const) {
      const response = await post(getTool(tool).path, { json: listing })
      const body: unknown = await response.json()
      expect(response.status).toBe(403)
      expect(body).toMatchObject({ error: { code: 'listing_access_denied', message } })
      expect(JSON.stringify(body)).not.toMatch(/scope/i)
      expect(defaultInterpretation.isListingAccessError({ status: 403, body, tool: getTool(tool) })).toBe(true)
    }
    expect(service.bills()).toBe(0)
  })

  it('the scope refusal of a listing tool is not taken for a listing error', async () => {
    const response = await post('/pdf/create', { key: MOCK_KEYS.limited, json: { objectId: MOCK_LISTINGS.otherObject } })
    expect(defaultInterpretation.isListingAccessError({ ...scopeRefusal, body: await response.json() })).toBe(false)
  })

  it('the owner’s listing and collection are accepted', async () => {
    expect((await post('/pdf/create', { json: { objectId: MOCK_LISTINGS.demoObject } })).status).toBe(202)
    expect((await post('/site/create', { json: { collectionId: MOCK_LISTINGS.demoCollection } })).status).toBe(200)
    const other = await post('/site/create', { key: MOCK_KEYS.other, json: { objectId: MOCK_LISTINGS.otherObject } })
    expect(other.status).toBe(200)
  })
})

describe('request bodies', () => {
  it('a file tool refuses JSON with a note that multipart/form-data is expected', async () => {
    const response = await post('/photo/enhance', { json: { mode: 'hdr' } })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('multipart_expected')
    expect(body.error.message).toContain('multipart/form-data')
    expect(body.error.message).toContain('"image"')
    expect(service.bills()).toBe(0)
  })

  it('the file must be in the row’s part, and `data` must be JSON', async () => {
    const { file } = exampleInput('photo/enhance') as { file: File }
    const misplaced = new FormData()
    misplaced.append('file', file)
    const wrongPart = await post('/photo/enhance', { form: misplaced })
    expect(wrongPart.status).toBe(400)
    expect(await wrongPart.json()).toMatchObject({ error: { code: 'file_missing', field: 'image' } })

    const garbled = new FormData()
    garbled.append('image', file)
    garbled.append('data', '{not json')
    const badData = await post('/photo/enhance', { form: garbled })
    expect(badData.status).toBe(400)
    expect(await badData.json()).toMatchObject({ error: { code: 'invalid_data' } })

    const bare = new FormData()
    bare.append('image', file)
    expect((await post('/photo/enhance', { form: bare })).status).toBe(202)
    expect(service.log.map((entry) => entry.contentType)).toEqual(Array(3).fill('multipart/form-data'))
  })

  it('the named fields are checked with the catalogue’s schema', async () => {
    const response = await post('/valuation/rent', { json: { propertyCategory: '', totalArea: -2 } })
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({
      error: {
        code: 'invalid_request',
        fields: [
          { field: 'propertyCategory', code: 'required' },
          { field: 'totalArea', code: 'not-positive' },
          { field: 'city', code: 'required' },
        ],
      },
    })
    expect((await post('/valuation/rent', { headers: { 'Content-Type': 'application/json' } })).status).toBe(400)
    expect(service.bills()).toBe(0)
  })
})

describe('rate limit', () => {
  it('429 with Retry-After per key on tool calls; polls go on', async () => {
    const limited = createMockService({ rateLimit: { limit: 2, windowMs: 60_000 } })
    server.use(...limited.handlers)
    const created = await post('/text/generate', { json: {} })
    const { jobId } = (await created.json()) as { jobId: string }
    expect((await post('/valuation/express', { json: {} })).status).toBe(200)
    const refused = await post('/valuation/express', { json: {} })
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(59)
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } })
    expect((await get(`/text/generate/jobs/${jobId}`)).status).toBe(200)
    expect((await post('/valuation/express', { key: MOCK_KEYS.other, json: {} })).status).toBe(200)
    expect(limited.bills('demo')).toBe(2)
  })

  it('announces a fixed pause when configured', async () => {
    const limited = createMockService({ rateLimit: { limit: 0, windowMs: 1000, retryAfterSeconds: 7 } })
    server.use(...limited.handlers)
    expect((await post('/valuation/express', { json: {} })).headers.get('retry-after')).toBe('7')
  })
})

describe('idempotent job creation', () => {
  it('the same Idempotency-Key replays the 202 and is not billed again', async () => {
    const send = () => post('/text/generate', { json: { prompt: 'hi' }, headers: { 'Idempotency-Key': 'idem-1' } })
    const first = await send()
    const again = await send()
    expect(again.status).toBe(202)
    expect(await again.json()).toEqual(await first.json())
    expect(service.log.map((entry) => [entry.idempotencyKey, entry.replay, entry.billed])).toEqual([
      ['idem-1', false, 'subscription'],
      ['idem-1', true, null],
    ])
    expect(service.bills()).toBe(1)
  })

  it('is kept per API key, and refused for another tool', async () => {
    const headers = { 'Idempotency-Key': 'shared' }
    const mine = (await (await post('/text/generate', { json: {}, headers })).json()) as { jobId: string }
    const theirs = (await (await post('/text/generate', { key: MOCK_KEYS.other, json: {}, headers })).json()) as {
      jobId: string
    }
    expect(theirs.jobId).not.toBe(mine.jobId)
    expect((await post('/content/generate', { json: {}, headers })).status).toBe(409)
    expect(service.bills()).toBe(2)
  })

  it('a synchronous tool ignores the header: each call runs, is billed, and never says it is a replay', async () => {
    const headers = { 'Idempotency-Key': 'sync-1' }
    const answers = [await post('/valuation/rent', { json: rent, headers }), await post('/valuation/rent', { json: rent, headers })]
    expect(answers.map((answer) => answer.headers.get('idempotent-replayed'))).toEqual([null, null])
    expect(service.log.map((entry) => entry.replay)).toEqual([false, false])
    expect(service.bills()).toBe(2)
  })

  it('says Idempotent-Replayed: true on a replayed job creation, JSON or multipart, and only there', async () => {
    for (const tool of ['text/generate', 'photo/enhance'] as const) {
      const send = () => callTool(tool, exampleInput(tool) as Record<string, unknown>, { headers: { 'Idempotency-Key': `idem-${tool}` } })
      const [first, again] = [await send(), await send()]
      expect([first.status, again.status]).toEqual([202, 202])
      expect([first.headers.get('idempotent-replayed'), again.headers.get('idempotent-replayed')]).toEqual([null, 'true'])
    }
    expect(service.bills()).toBe(2)
  })

  it('says it on the retry of a creation whose answer was lost', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'lost' })
    const send = () => post('/text/generate', { json: { prompt: 'hi' }, headers: { 'Idempotency-Key': 'idem-lost' } })
    await expect(send()).rejects.toThrow()
    const retried = await send()
    expect([retried.status, retried.headers.get('idempotent-replayed')]).toEqual([202, 'true'])
    expect(service.bills()).toBe(1)
  })
})

describe('jobs', () => {
  it('last jobDurationMs; the deprecated jobDuration says the same', async () => {
    const advance = fakeClock()
    const bodies = []
    for (const options of [{ jobDurationMs: 1000 }, { jobDuration: 1000 }]) {
      const simulated = createMockService(options)
      const call = (path: string, init: RequestInit = {}) =>
        simulated.fetch(MOCK_BASE_URL + path, { ...init, headers: { Authorization: `Bearer ${MOCK_KEYS.demo}`, 'Content-Type': 'application/json' } })
      const { jobId } = (await (await call('/text/generate', { method: 'POST', body: '{}' })).json()) as { jobId: string }
      advance(999)
      const before = ((await (await call(`/text/generate/jobs/${jobId}`)).json()) as { status: string }).status
      advance(1)
      bodies.push([before, ((await (await call(`/text/generate/jobs/${jobId}`)).json()) as { status: string }).status])
    }
    expect(bodies).toEqual([['processing', 'completed'], ['processing', 'completed']])
  })

  it('move pending → processing → completed, with progress and result links', async () => {
    const advance = fakeClock()
    const jobId = await startJob('pdf/create')
    const read = async () => (await (await get(`/pdf/create/jobs/${jobId}`)).json()) as Record<string, unknown>
    expect(await read()).toMatchObject({ jobId, status: 'pending', progress: 0 })
    advance(150)
    expect(await read()).toMatchObject({ status: 'processing', progress: 0.5 })
    expect((await read()).result).toBeUndefined()
    advance(150)
    const done = await read()
    expect(done).toMatchObject({ status: 'completed', progress: 1, result: { url: expect.any(String), language: 'en' } })
    expect(defaultInterpretation.artifacts(done, `${MOCK_BASE_URL}/artifacts/`)).toEqual([(done.result as { url: string }).url])
    expect(await read()).toEqual(done)
    expect(service.log.filter((entry) => entry.kind === 'poll').map((entry) => entry.billed)).toEqual(Array(5).fill(null))
  })

  it('reach the terminal status the outcome rule picks, changeable at runtime', async () => {
    const rule = vi.fn(() => 'done' as const)
    const chosen = createMockService({ jobDurationMs: 0, outcome: rule, intermediateStatus: 'rendering' })
    server.use(...chosen.handlers)
    const jobId = await startJob('text/generate')
    expect(rule).toHaveBeenCalledWith({ tool: 'text/generate', input: exampleInput('text/generate'), account: 'demo' })
    expect(await (await get(`/text/generate/jobs/${jobId}`)).json()).toMatchObject({ status: 'done' })

    chosen.setOutcome('success')
    const succeeded = await startJob('text/generate')
    expect(await (await get(`/text/generate/jobs/${succeeded}`)).json()).toMatchObject({ status: 'success' })

    chosen.setOutcome(({ tool }) => (tool === 'video/create' ? 'failed' : 'completed'))
    const failed = await startJob('video/create')
    const body = (await (await get(`/video/create/jobs/${failed}`)).json()) as Record<string, unknown>
    expect(body).toMatchObject({ status: 'failed', error: { code: 'job_failed', message: expect.any(String) } })
    expect(body.result).toBeUndefined()
    expect(chosen.bills()).toBe(3)
  })

  it('show a custom intermediate status', async () => {
    const advance = fakeClock()
    const rendering = createMockService({ jobDurationMs: JOB_MS, intermediateStatus: 'rendering' })
    server.use(...rendering.handlers)
    const jobId = await startJob('avatar/video')
    advance(200)
    expect(await (await get(`/avatar/video/jobs/${jobId}`)).json()).toMatchObject({ status: 'rendering' })
  })

  it('stand still while frozen', async () => {
    const advance = fakeClock()
    const jobId = await startJob('text/generate')
    advance(150)
    service.freezeJobs()
    advance(10_000)
    expect(await (await get(`/text/generate/jobs/${jobId}`)).json()).toMatchObject({ status: 'processing', progress: 0.5 })
    service.freezeJobs(false)
    advance(150)
    expect(await (await get(`/text/generate/jobs/${jobId}`)).json()).toMatchObject({ status: 'completed' })
  })

  it('are 404 for another key, another tool’s path and an unknown id', async () => {
    const jobId = await startJob('text/generate')
    for (const [path, key] of [
      [`/text/generate/jobs/${jobId}`, MOCK_KEYS.other],
      [`/text/generate/jobs/${jobId}`, MOCK_KEYS.limited],
      [`/content/generate/jobs/${jobId}`, MOCK_KEYS.demo],
      ['/text/generate/jobs/job_0000000000000000', MOCK_KEYS.demo],
    ] as const) {
      const response = await get(path, key)
      expect(response.status).toBe(404)
      expect(await response.json()).toMatchObject({ error: { code: 'job_not_found' } })
    }
    expect((await get(`/text/generate/jobs/${jobId}`)).status).toBe(200)
  })
})

describe('artifacts', () => {
  it('a PNG: signature, 64×64 header, chunks with valid CRCs and pixels that inflate', async () => {
    const job = await finishedJob('photo/enhance')
    const response = await get((job.result as { url: string }).url)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('content-disposition')).toBe('inline; filename="enhanced.png"')
    const bytes = await bytesOf(response)
    expect([...bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const view = new DataView(bytes.buffer)
    expect([view.getUint32(16), view.getUint32(20)]).toEqual([64, 64])
    const chunks: string[] = []
    let idat = new Uint8Array()
    for (let at = 8; at < bytes.length; ) {
      const length = view.getUint32(at)
      const type = ascii(bytes.subarray(at + 4, at + 8))
      const data = bytes.subarray(at + 8, at + 8 + length)
      expect(view.getUint32(at + 8 + length), `CRC of ${type}`).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)))
      if (type === 'IDAT') idat = data
      chunks.push(type)
      at += 12 + length
    }
    expect(chunks).toEqual(['IHDR', 'IDAT', 'IEND'])
    expect(inflateSync(idat)).toHaveLength(64 * (1 + 64 * 3))
  })

  it('a PDF: one page that says something, with a correct cross-reference table', async () => {
    const job = await finishedJob('pdf/create')
    const response = await get((job.result as { url: string }).url)
    expect(response.headers.get('content-type')).toBe('application/pdf')
    expect(response.headers.get('content-disposition')).toBe('inline; filename="listing.pdf"')
    const text = ascii(await bytesOf(response))
    expect(text.startsWith('%PDF-')).toBe(true)
    expect(text.trimEnd().endsWith('%%EOF')).toBe(true)
    expect(text).toContain('(Listing obj_demo) Tj')
    expect(text).toContain('/Count 1')
    const xref = Number(/startxref\n(\d+)/.exec(text)![1])
    expect(text.slice(xref, xref + 4)).toBe('xref')
    const offsets = [...text.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((match) => Number(match[1]))
    offsets.forEach((offset, index) => expect(text.slice(offset)).toMatch(new RegExp(`^${index + 1} 0 obj`)))
  })

  it('an MP4: top-level boxes from ftyp that fill the file, with the movie and its media', async () => {
    const job = await finishedJob('video/create')
    const response = await get((job.result as { url: string }).url)
    expect(response.headers.get('content-type')).toBe('video/mp4')
    const bytes = await bytesOf(response)
    const view = new DataView(bytes.buffer)
    const boxes: string[] = []
    let at = 0
    for (; at < bytes.length; at += view.getUint32(at)) boxes.push(ascii(bytes.subarray(at + 4, at + 8)))
    expect(at).toBe(bytes.length)
    expect(boxes[0]).toBe('ftyp')
    expect(boxes).toEqual(expect.arrayContaining(['moov', 'mdat']))
    expect(bytes.length).toBeLessThan(20_000)
  })

  it('a web page for site/create, in its synchronous result', async () => {
    const result = (await (await post('/site/create', { json: { objectId: MOCK_LISTINGS.demoObject } })).json()) as {
      site: { url: string; title: string }
    }
    expect(result.site.url.startsWith(`${MOCK_BASE_URL}/artifacts/`)).toBe(true)
    const response = await get(result.site.url)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await response.text()).toContain('<title>Listing obj_demo</title>')
  })

  it('several files where a tool makes several', async () => {
    const job = await finishedJob('floorplan/create')
    const files = (job.result as { files: { name: string; url: string }[] }).files
    expect(files.map((file) => file.name)).toEqual(['floorplan.png', 'floorplan.pdf'])
    const types = await Promise.all(files.map(async (file) => (await get(file.url)).headers.get('content-type')))
    expect(types).toEqual(['image/png', 'application/pdf'])
  })

  it('are bound to the key that created them', async () => {
    const job = await finishedJob('valuation/report')
    const url = (job.result as { url: string }).url
    expect((await get(url, MOCK_KEYS.other)).status).toBe(404)
    expect((await get(url, MOCK_KEYS.limited)).status).toBe(404)
    expect((await get(url, null)).status).toBe(401)
    expect((await get(`${MOCK_BASE_URL}/artifacts/art_0000000000000000/x.pdf`)).status).toBe(404)
    expect((await get(url)).status).toBe(200)
    expect(service.log.filter((entry) => entry.kind === 'artifact').map((entry) => entry.status)).toEqual([
      404, 404, 401, 404, 200,
    ])
  })
})

describe('faults', () => {
  it('lost: processed and billed, but the answer never arrives', async () => {
    service.inject({ match: { tool: 'valuation/rent' }, fault: 'lost' })
    await expect(post('/valuation/rent', { json: rent })).rejects.toThrow(TypeError)
    expect(service.log.at(-1)).toMatchObject({ fault: 'lost', status: 200, billed: 'subscription' })
    expect((await post('/valuation/rent', { json: rent })).status).toBe(200)
  })

  it('lost then retried with the same Idempotency-Key: the job is replayed, billed once', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'lost' })
    const headers = { 'Idempotency-Key': 'retry-1' }
    await expect(post('/video/create', { form: await formOf('video/create'), headers })).rejects.toThrow(TypeError)
    const retried = await post('/video/create', { form: await formOf('video/create'), headers })
    expect(retried.status).toBe(202)
    expect(service.log.map((entry) => [entry.fault, entry.replay])).toEqual([
      ['lost', false],
      [undefined, true],
    ])
    expect(service.bills()).toBe(1)
  })

  it('network: fails before processing, nothing billed', async () => {
    service.inject({ fault: 'network' })
    await expect(post('/valuation/express', { json: {} })).rejects.toThrow(TypeError)
    expect(service.log.at(-1)).toMatchObject({ fault: 'network', status: 0, billed: null })
    expect(service.bills()).toBe(0)
  })

  it('server-error: a 500 JSON error, not processed', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'server-error' })
    const response = await post('/text/generate', { json: {} })
    expect(response.status).toBe(500)
    expect(await response.json()).toMatchObject({ error: { code: 'internal_error' }, requestId: expect.stringMatching(/^req_/) })
    expect(service.bills()).toBe(0)
  })

  it('html-error: a 502 HTML page, as a proxy sends', async () => {
    service.inject({ match: { method: 'POST' }, fault: 'html-error' })
    const response = await post('/valuation/express', { json: {} })
    expect(response.status).toBe(502)
    expect(response.headers.get('content-type')).toContain('text/html')
    expect(await response.text()).toContain('<html>')
    expect(service.bills()).toBe(0)
  })

  it('rate-limit: 429 with Retry-After in seconds or as an HTTP date', async () => {
    service.inject({ fault: 'rate-limit', times: 2 })
    const byDefault = await post('/valuation/express', { json: {} })
    expect([byDefault.status, byDefault.headers.get('retry-after')]).toEqual([429, '1'])
    expect((await post('/valuation/express', { json: {} })).status).toBe(429)
    const until = new Date(Date.now() + 1500)
    service.inject({ fault: 'rate-limit', retryAfterMs: until })
    const dated = (await post('/valuation/express', { json: {} })).headers.get('retry-after')!
    expect(dated).toMatch(/GMT$/)
    expect(Date.parse(dated)).toBeGreaterThanOrEqual(until.getTime() - 999)
    expect(Date.parse(dated)).toBeGreaterThanOrEqual(Date.now())
    expect((await post('/valuation/express', { json: {} })).status).toBe(200)
    expect(service.bills()).toBe(1)
  })

  it('rate-limit: retryAfterMs is milliseconds; the deprecated retryAfter, seconds, still says the same', async () => {
    service.inject({ fault: 'rate-limit', retryAfterMs: 5000 })
    service.inject({ fault: 'rate-limit', retryAfter: 5 })
    const headers = [await post('/valuation/express', { json: {} }), await post('/valuation/express', { json: {} })]
    expect(headers.map((answer) => answer.headers.get('retry-after'))).toEqual(['5', '5'])
  })

  it('hit only the requests they match, as many times as told', async () => {
    service.inject({ match: { kind: 'poll', tool: 'text/generate' }, fault: 'server-error', times: 2 })
    service.inject({ match: { kind: 'artifact' }, fault: 'network' })
    const textJob = await startJob('text/generate')
    const contentJob = await startJob('content/generate')
    expect((await get(`/content/generate/jobs/${contentJob}`)).status).toBe(200)
    const statuses = []
    for (let poll = 0; poll < 3; poll++) statuses.push((await get(`/text/generate/jobs/${textJob}`)).status)
    expect(statuses).toEqual([500, 500, 200])

    const job = await finishedJob('photo/enhance')
    const url = (job.result as { url: string }).url
    await expect(get(url)).rejects.toThrow(TypeError)
    expect((await get(url)).status).toBe(200)
  })

  it('are cleared by reset()', async () => {
    service.inject({ fault: 'server-error', times: Infinity })
    service.reset()
    expect((await post('/valuation/express', { json: {} })).status).toBe(200)
  })
})

describe('the log and reset()', () => {
  it('records one entry per request', async () => {
    const jobId = await startJob('photo/enhance')
    await get(`/photo/enhance/jobs/${jobId}`, MOCK_KEYS.demo)
    expect(service.log).toEqual([
      {
        at: expect.any(Number),
        method: 'POST',
        path: '/photo/enhance',
        kind: 'call',
        tool: 'photo/enhance',
        key: MOCK_KEYS.demo,
        account: 'demo',
        idempotencyKey: undefined,
        status: 202,
        billed: 'subscription',
        replay: false,
        contentType: 'multipart/form-data',
        requestId: expect.stringMatching(/^req_/),
      },
      expect.objectContaining({ method: 'GET', path: `/photo/enhance/jobs/${jobId}`, kind: 'poll', status: 200, billed: null }),
    ])
  })

  it('reset() forgets jobs, artifacts and the log, and refills wallets', async () => {
    const job = await finishedJob('pdf/create')
    service.setOutcome('failed')
    service.reset()
    expect(service.log).toHaveLength(0)
    expect(service.account('demo').subscriptionCalls).toBe(1000)
    expect((await get(`/pdf/create/jobs/${String(job.jobId)}`)).status).toBe(404)
    expect((await get((job.result as { url: string }).url)).status).toBe(404)
    expect(await finishedJob('pdf/create')).toMatchObject({ status: 'completed' })
  })

  it('account() throws for an unknown account', () => {
    expect(() => service.account('nobody')).toThrow(/nobody/)
  })
})

async function formOf(id: ToolId): Promise<FormData> {
  const { file, ...options } = exampleInput(id) as { file: File }
  const form = new FormData()
  form.append('data', JSON.stringify(options))
  form.append((getTool(id) as ToolDefinition).fileField ?? 'file', file, file.name)
  return form
}

function crc32(bytes: Uint8Array): number {
  let crc = ~0
  for (const byte of bytes) {
    crc ^= byte
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1
  }
  return ~crc >>> 0
}
