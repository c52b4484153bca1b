// @vitest-environment node
// The proxy against a hostile public: what a signed-in stranger gets with hostile input, a flood,
// a misbehaving service or a failing store. The proxy answers in process; the service is a
// stand-in whose every request is recorded.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { memoryStore, type ProxyEvent, type ProxyStore, type ToolsProxyOptions } from '../src/server/index.js'
import { createToolsClient, PROXY_ERROR_CODES, type ToolId, type ToolsError } from '../src/tools/index.js'
import { listen } from './support/http.js'
import { LONG_WINDOW, SERVICE, SITE, testProxy } from './support/proxy.js'


type Answer = (request: Request) => Response | Promise<Response>
let answer: Answer = () => Response.json({})
/** Every request the stand-in service received. */
let received: Request[] = []
afterEach(() => {
  answer = () => Response.json({})
  received = []
  vi.useRealTimers()
})

/** The stand-in service: records the request and answers it; an aborted request fails as fetch fails. */
const service: typeof fetch = (input, init) => {
  const request = new Request(input, init)
  received.push(request.clone())
  return new Promise((resolve, reject) => {
    init?.signal?.addEventListener('abort', () => reject(init.signal!.reason))
    Promise.resolve()
      .then(() => answer(request))
      .then(resolve, reject)
  })
}

/** Users by the `x-user` header, with every tool unless `tools` says otherwise. */
let toolsOf: Record<string, readonly string[]> = {}
afterEach(() => {
  toolsOf = {}
})

function proxyWith(options: Partial<ToolsProxyOptions> = {}) {
  const proxy = testProxy(service, options, (user) => toolsOf[user] as ToolId[] | undefined)
  /** A request from a page of the site, as `user`. */
  const send = (user: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': user, ...init.headers } }))
  const post = (user: string, tool: string, body: unknown, headers: Record<string, string> = {}) =>
    send(user, `/${tool}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } })
  /** A page's client behind this proxy. */
  const browser = (user: string) =>
    createToolsClient({
      baseUrl: `${SITE}/api/tools`,
      retry: false,
      pollInterval: 5,
      headers: { 'x-user': user },
      fetch: (input, init) => proxy.handle(new Request(input, init)),
    })
  return { proxy, send, post, browser }
}

/** The service's answer to a job-creating call. */
const created = () => Response.json({ jobId: 'job_1', status: 'pending', requestId: 'req_1' }, { status: 202 })
const codeOf = async (response: Response) => ((await response.json()) as { error?: { code?: string } }).error?.code
const fileOf = (name: string) => `${SERVICE}/artifacts/${name}`

describe('links: only the files the service minted for this user', () => {
  const rent = { propertyCategory: 'flat', totalArea: 50 }

  // valuation/report makes files: its answer's links are signed; a service address the user wrote is not, and never reaches the page.
  it('never signs a service address the user wrote into the call, however it is escaped, and passes none on', async () => {
    // The service echoes the input next to its own file.
    answer = async (request) => Response.json({ input: await request.json(), report: fileOf('mine.pdf') })
    const { post } = proxyWith()
    for (const city of [fileOf('victim.pdf'), `${SERVICE}/artifacts/x/../victim.pdf`]) {
      const response = await post('mallory', 'valuation/report', { ...rent, city })
      const text = await response.text()
      expect(response.status).toBe(200)
      const body = JSON.parse(text) as { input: { city: string | null }; report: string }
      expect(body.input.city).toBeNull()
      expect(text).not.toContain('victim')
      expect(body.report).toMatch(/^\/api\/tools\/artifacts\//)
    }
    // Escaped in the raw JSON the proxy received: it compares what the service will read.
    const escaped = `{"propertyCategory":"flat","totalArea":50,"city":"https:\\/\\/tools.cabinet.test\\/v1\\/artifacts\\u002fvictim.pdf"}`
    const { send } = proxyWith()
    const response = await send('mallory', '/valuation/report', { method: 'POST', body: escaped, headers: { 'content-type': 'application/json' } })
    const body = (await response.json()) as { input: { city: string | null }; report: string }
    expect(body.input.city).toBeNull()
    expect(body.report).toMatch(/^\/api\/tools\/artifacts\//)
  })

  it('never signs an address from a file call’s options, nor one its job echoes later', async () => {
    const jobs = new Map<string, unknown>()
    answer = async (request) => {
      const url = new URL(request.url)
      if (request.method === 'POST') {
        const form = await request.formData()
        jobs.set('job_1', JSON.parse(String(form.get('data'))))
        return created()
      }
      expect(url.pathname).toBe('/v1/photo/enhance/jobs/job_1')
      return Response.json({ jobId: 'job_1', status: 'completed', options: jobs.get('job_1'), image: fileOf('enhanced.png') })
    }
    const { browser } = proxyWith()
    const job = await browser('mallory').run('photo/enhance', { file: new Blob(['png']), mode: 'auto', note: fileOf('victim.png') } as never)
    const data = job.data as { options: { note: string | null }; image: string }
    expect(data.options.note).toBeNull()
    expect(data.image).toMatch(/^\/api\/tools\/artifacts\//)
    expect(job.artifacts).toHaveLength(1)
  })

  it('gives a file to the first user it was issued to, and to no other', async () => {
    answer = () => Response.json({ report: fileOf('shared.pdf') })
    const { post } = proxyWith()
    const first = (await (await post('alice', 'valuation/report', { ...rent, city: 'Berlin' })).json()) as { report: string }
    const second = (await (await post('bob', 'valuation/report', { ...rent, city: 'Berlin' })).json()) as { report: string | null }
    expect(first.report).toMatch(/^\/api\/tools\/artifacts\//)
    expect(second.report).toBeNull()
  })

  it('rewrites links at any depth, and answers an answer too deep or with too many files with a typed 502', async () => {
    const nest = (depth: number, leaf: unknown) => {
      let value = leaf
      for (let level = 0; level < depth; level++) value = { next: value }
      return value
    }
    const { post } = proxyWith()
    answer = () => Response.json(nest(50, fileOf('deep.pdf')))
    expect(JSON.stringify(await (await post('alice', 'valuation/report', { ...rent, city: 'Berlin' })).json())).toMatch(/"\/api\/tools\/artifacts\//)

    answer = () => new Response(`${'['.repeat(100_000)}${']'.repeat(100_000)}`, { headers: { 'content-type': 'application/json' } })
    const deep = await post('alice', 'valuation/report', { ...rent, city: 'Berlin' })
    expect(deep.status).toBe(502)
    expect(await codeOf(deep)).toBe(PROXY_ERROR_CODES.answerTooLarge)

    answer = () => Response.json(Array.from({ length: 2000 }, (_, index) => fileOf(`f${index}.pdf`)))
    const many = await post('alice', 'valuation/report', { ...rent, city: 'Berlin' })
    expect(many.status).toBe(502)
    expect(await codeOf(many)).toBe(PROXY_ERROR_CODES.answerTooLarge)
  })

  it('stops reading an answer at maxAnswerBytes', async () => {
    let pulled = 0
    answer = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            pulled += 64 * 1024
            controller.enqueue(new Uint8Array(64 * 1024).fill(32))
            if (pulled > 64 * 1024 * 1024) controller.close()
          },
        }),
        { headers: { 'content-type': 'application/json' } },
      )
    const { post } = proxyWith({ maxAnswerBytes: 1024 * 1024 })
    const response = await post('alice', 'valuation/rent', { ...rent, city: 'Berlin' })
    expect(response.status).toBe(502)
    expect(await codeOf(response)).toBe(PROXY_ERROR_CODES.answerTooLarge)
    expect(pulled).toBeLessThan(2 * 1024 * 1024)
  })
})

describe('redirects', () => {
  const redirect = (location: string) => new Response(null, { status: 302, headers: { location } })

  it('answers 502 upstream_redirect to a redirected call or job read, and never passes a Location on', async () => {
    const { post, send, browser } = proxyWith()
    answer = () => redirect('https://elsewhere.test/steal')
    const call = await post('alice', 'valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })
    expect(call.status).toBe(502)
    expect(call.headers.get('location')).toBeNull()
    expect(await codeOf(call)).toBe(PROXY_ERROR_CODES.upstreamRedirect)

    answer = (request) => (request.method === 'POST' ? created() : redirect('https://elsewhere.test/'))
    const { jobId } = await browser('alice').start('pdf/create', { objectId: 'obj_1' })
    const read = await send('alice', `/pdf/create/jobs/${encodeURIComponent(jobId)}`)
    expect(read.status).toBe(502)
    expect(read.headers.get('location')).toBeNull()
    expect(await codeOf(read)).toBe(PROXY_ERROR_CODES.upstreamRedirect)
  })

  it('answers 502 upstream_redirect to a redirected upload over real HTTP, and sends it nowhere else', async () => {
    const service = await listen(async (request) => {
      await request.arrayBuffer()
      return new Response(null, { status: 307, headers: { location: 'http://127.0.0.1:9/elsewhere' } })
    })
    try {
      const { send } = proxyWith({ baseUrl: `${service.url}/v1`, fetch: undefined, limits: { calls: 1, windowMs: LONG_WINDOW } })
      const upload = () => {
        const form = new FormData()
        form.set('data', '{}')
        form.set('image', new Blob(['png']), 'room.png')
        return send('alice', '/photo/enhance', { method: 'POST', body: form })
      }
      // Twice under a cap of one: a redirected call was not processed, so it is not counted.
      for (const response of [await upload(), await upload()]) {
        expect(response.status).toBe(502)
        expect(response.headers.get('location')).toBeNull()
        expect(await codeOf(response)).toBe(PROXY_ERROR_CODES.upstreamRedirect)
      }
    } finally {
      await service.close()
    }
  })

  it('follows a download only to downloadOrigins, without the key', async () => {
    const { post, send } = proxyWith({ downloadOrigins: ['https://cdn.test'] })
    answer = (request) => {
      const url = new URL(request.url)
      if (url.pathname === '/v1/valuation/report') return Response.json({ report: fileOf('a.pdf'), other: fileOf('b.pdf') })
      if (url.pathname === '/v1/artifacts/a.pdf') return redirect('https://cdn.test/a.pdf')
      if (url.pathname === '/v1/artifacts/b.pdf') return redirect('https://evil.test/b.pdf')
      return new Response('%PDF-1.4', { headers: { 'content-type': 'application/pdf' } })
    }
    const links = (await (await post('alice', 'valuation/report', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })).json()) as Record<string, string>
    const good = await send('alice', links.report!.slice('/api/tools'.length))
    expect(good.status).toBe(200)
    expect(await good.text()).toBe('%PDF-1.4')
    const hop = received.find((request) => request.url === 'https://cdn.test/a.pdf')!
    expect(hop.headers.get('authorization')).toBeNull()

    const bad = await send('alice', links.other!.slice('/api/tools'.length))
    expect(bad.status).toBe(502)
    expect(received.some((request) => request.url.startsWith('https://evil.test'))).toBe(false)
  })
})

describe('downloads', () => {
  it('passes passive types inline; anything else, or ambiguous, as an attachment under a sandbox; always nosniff', async () => {
    let type = ''
    answer = (request) =>
      new URL(request.url).pathname === '/v1/valuation/report'
        ? Response.json({ file: fileOf('f') })
        : new Response('<script>alert(1)</script>', { headers: { 'content-type': type } })
    const { post, send } = proxyWith()
    const link = ((await (await post('alice', 'valuation/report', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })).json()) as { file: string }).file
    for (const [given, passive] of [
      ['image/png', true],
      ['application/pdf', true],
      ['text/plain; charset=utf-8', true],
      ['video/mp4', true],
      ['text/plain, text/html', false],
      ['text/html', false],
      ['image/svg+xml', false],
      ['application/xml', false],
      ['application/x-unknown', false],
      ['', false],
    ] as const) {
      type = given
      const response = await send('alice', link.slice('/api/tools'.length))
      expect(response.headers.get('x-content-type-options'), given).toBe('nosniff')
      expect(response.headers.get('content-disposition')?.startsWith(passive ? 'inline' : 'attachment'), given).toBe(true)
      expect(response.headers.get('content-security-policy')?.startsWith('sandbox') ?? false, given).toBe(!passive)
    }
  })
})

describe('a flood', () => {
  it('shares one read of a job among every reader, across instances sharing a store', async () => {
    const store = memoryStore()
    answer = (request) =>
      request.method === 'POST' ? created() : Response.json({ jobId: 'job_1', status: 'processing' })
    const one = proxyWith({ store })
    const other = proxyWith({ store })
    const { jobId } = await one.browser('alice').start('pdf/create', { objectId: 'obj_1' })
    const path = `/pdf/create/jobs/${encodeURIComponent(jobId)}`
    const answers = await Promise.all([...Array.from({ length: 50 }, () => one.send('alice', path)), ...Array.from({ length: 50 }, () => other.send('alice', path))])
    expect(answers.every((response) => response.status === 200)).toBe(true)
    expect(received.filter((request) => request.method === 'GET')).toHaveLength(1)
  })

  it('answers a user over their request rate with 429 and Retry-After, and sends nothing on', async () => {
    answer = () => Response.json({ value: 1 })
    const { post } = proxyWith({ rate: { requests: 5, perMs: 60_000 } })
    const answers = await Promise.all(Array.from({ length: 8 }, () => post('mallory', 'valuation/express', {})))
    const refused = answers.filter((response) => response.status === 429)
    expect(refused).toHaveLength(3)
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    expect(await codeOf(refused[0]!)).toBe(PROXY_ERROR_CODES.rateLimited)
    expect(received).toHaveLength(5)
    // Another user is not held back.
    expect((await post('alice', 'valuation/express', {})).status).toBe(200)
  })

  it('counts calls under the rate, not the reads and streams that follow the jobs they started', async () => {
    answer = (request) => (request.method === 'POST' ? created() : Response.json({ jobId: 'job_1', status: 'processing' }))
    const { post, send } = proxyWith({ rate: { requests: 2, perMs: 60_000 } })
    const { jobId } = (await (await post('alice', 'pdf/create', { objectId: 'obj_1' })).json()) as { jobId: string }
    const reads = await Promise.all(Array.from({ length: 10 }, () => send('alice', `/pdf/create/jobs/${encodeURIComponent(jobId)}`)))
    expect(reads.map((response) => response.status)).toEqual(Array(10).fill(200))
    const stream = new AbortController()
    const events = await send('alice', `/events?job=${encodeURIComponent(`pdf/create:${jobId}`)}`, { signal: stream.signal })
    expect(events.status).toBe(200)
    stream.abort()
    expect((await post('alice', 'pdf/create', { objectId: 'obj_1' })).status).toBe(202)
    expect((await post('alice', 'pdf/create', { objectId: 'obj_1' })).status).toBe(429)
  })
})

describe('a failing or slow store', () => {
  const failing: ProxyStore = {
    increment: () => Promise.reject(new Error('connection lost')),
    claim: () => Promise.reject(new Error('connection lost')),
    release: () => Promise.reject(new Error('connection lost')),
    get: () => Promise.reject(new Error('connection lost')),
    set: () => Promise.reject(new Error('connection lost')),
    hold: () => Promise.reject(new Error('connection lost')),
    lease: () => Promise.reject(new Error('connection lost')),
    push: () => Promise.reject(new Error('connection lost')),
    list: () => Promise.reject(new Error('connection lost')),
    publish: () => Promise.reject(new Error('connection lost')),
    subscribe: () => Promise.reject(new Error('connection lost')),
  }

  it('answers 503 store_unavailable and sends nothing to the service', async () => {
    const errors: string[] = []
    const { post } = proxyWith({ store: failing, onError: (message) => errors.push(message) })
    const response = await post('alice', 'valuation/express', {})
    expect(response.status).toBe(503)
    expect(await codeOf(response)).toBe(PROXY_ERROR_CODES.storeUnavailable)
    expect(received).toHaveLength(0)
    expect(errors.join()).toMatch(/store/)
  })

  it('gives a store one second', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const hanging: ProxyStore = { ...failing, increment: () => new Promise(() => {}) }
    const { post } = proxyWith({ store: hanging })
    const pending = post('alice', 'valuation/express', {})
    await vi.advanceTimersByTimeAsync(999)
    let settled = false
    void pending.then(() => (settled = true))
    await Promise.resolve()
    expect(settled).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect((await pending).status).toBe(503)
    expect(received).toHaveLength(0)
  })
})

/** A POST whose body sends `text` and then nothing more, never ending. */
function stalledPost(text: string, contentType: string) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text))
    },
  })
  return { method: 'POST', body, headers: { 'content-type': contentType }, duplex: 'half' } as RequestInit & { headers: Record<string, string> }
}

describe('a hung service', () => {
  it('answers 504 upstream_timeout when the service does not answer in timeoutMs', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    answer = () => new Promise(() => {})
    const { post } = proxyWith({ timeoutMs: 30_000 })
    const pending = post('alice', 'valuation/express', {})
    await vi.advanceTimersByTimeAsync(30_000)
    const response = await pending
    expect(response.status).toBe(504)
    expect(await codeOf(response)).toBe(PROXY_ERROR_CODES.upstreamTimeout)
  })

  it('answers 408 to a call whose JSON body never finishes arriving, and sends nothing on', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const { send } = proxyWith({ timeoutMs: 10_000 })
    const pending = send('alice', '/valuation/rent', stalledPost('{"propertyCategory":', 'application/json'))
    await vi.advanceTimersByTimeAsync(10_000)
    const response = await pending
    expect(response.status).toBe(408)
    expect(await codeOf(response)).toBe(PROXY_ERROR_CODES.requestTimeout)
    expect(received).toHaveLength(0)
  })

  it('reads away a body it refused for 10 s at most, and closes its connection', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    // A body far over the JSON cap, a 64 KiB chunk every 100 ms, for ever.
    let pulled = 0
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            pulled++
            controller.enqueue(new Uint8Array(64 * 1024).fill(32))
            resolve()
          }, 100),
        ),
    })
    const { send } = proxyWith()
    const pending = send('alice', '/valuation/rent', { method: 'POST', body, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit & { headers: Record<string, string> })
    await vi.advanceTimersByTimeAsync(3000)
    const response = await pending
    expect(response.status).toBe(413)
    expect(response.headers.get('connection')).toBe('close')
    await vi.advanceTimersByTimeAsync(15_000)
    const read = pulled
    await vi.advanceTimersByTimeAsync(30_000)
    expect(pulled).toBe(read)
  })

  it('ends an upload that goes silent with 504, and counts nothing against the cap', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    answer = async (request) => {
      await request.arrayBuffer()
      return created()
    }
    const { send, post } = proxyWith({ timeoutMs: 10_000, limits: { calls: 1, windowMs: LONG_WINDOW } })
    const pending = send('alice', '/photo/enhance', stalledPost('--b\r\nContent-Disposition: form-data; name="data"\r\n\r\n{}', 'multipart/form-data; boundary=b'))
    await vi.advanceTimersByTimeAsync(10_000)
    const response = await pending
    expect(response.status).toBe(504)
    vi.useRealTimers()
    answer = () => Response.json({ value: 1 })
    expect((await post('alice', 'valuation/express', {})).status).toBe(200)
  })

  it('gives a call back when fetch refuses it before any connection (a service on port 9, which the Fetch standard blocks)', async () => {
    const events: ProxyEvent[] = []
    const proxy = testProxy(globalThis.fetch, { baseUrl: 'http://127.0.0.1:9/v1', limits: { calls: 1, windowMs: LONG_WINDOW }, onEvent: (event) => void events.push(event) })
    const send = (path: string, init: RequestInit = {}) => proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': 'alice', ...init.headers } }))
    const call = () => send('/valuation/express', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    expect((await call()).status).toBe(502)
    expect((await (await send('/usage')).json()) as { used: number }).toMatchObject({ used: 0 })
    expect(events.find((event) => event.type === 'request' && event.kind === 'call')).toMatchObject({ billed: false })
    // Not counted, so the one call the cap allows is still there.
    expect((await call()).status).toBe(502)
  })
})

describe('the spend cap counts only what the service may have billed', () => {
  it('refuses invalid input before the cap, so it never holds a place a valid call needs', async () => {
    answer = () => Response.json({ value: 1 })
    const { post } = proxyWith({ limits: { calls: 2, windowMs: LONG_WINDOW } })
    const invalid = await Promise.all(Array.from({ length: 5 }, () => post('alice', 'valuation/rent', { totalArea: -1 })))
    expect(invalid.map((response) => response.status)).toEqual([400, 400, 400, 400, 400])
    expect(await codeOf(invalid[0]!)).toBe(PROXY_ERROR_CODES.invalidInput)
    const valid = await Promise.all(Array.from({ length: 2 }, () => post('alice', 'valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })))
    expect(valid.map((response) => response.status)).toEqual([200, 200])
    expect(received).toHaveLength(2)
  })

  it('gives a call back when the service was never reached', async () => {
    answer = () => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) })
    }
    const { post } = proxyWith({ limits: { calls: 1, windowMs: LONG_WINDOW } })
    for (let attempt = 0; attempt < 3; attempt++) expect((await post('alice', 'valuation/express', {})).status).toBe(502)
    answer = () => Response.json({ value: 1 })
    expect((await post('alice', 'valuation/express', {})).status).toBe(200)
  })
})

describe('requests', () => {
  it('refuses a POST from another site (403 cross_site) and lets servers and allowed origins through', async () => {
    answer = () => Response.json({ value: 1 })
    const { post } = proxyWith({ allowedOrigins: ['https://shop.partner.test'] })
    const cases: [Record<string, string>, number][] = [
      [{ 'sec-fetch-site': 'cross-site' }, 403],
      [{ origin: 'https://evil.test' }, 403],
      [{ origin: 'null' }, 403],
      [{ origin: SITE, 'sec-fetch-site': 'same-origin' }, 200],
      [{ origin: 'https://shop.partner.test', 'sec-fetch-site': 'same-site' }, 200],
      [{}, 200],
    ]
    for (const [headers, status] of cases) {
      const response = await post('alice', 'valuation/express', {}, headers)
      expect(response.status, JSON.stringify(headers)).toBe(status)
      if (status === 403) expect(await codeOf(response)).toBe(PROXY_ERROR_CODES.crossSite)
    }
    expect(received).toHaveLength(3)
  })

  it('accepts a handle in its one canonical spelling only', async () => {
    answer = (request) =>
      request.method === 'POST' ? created() : Response.json({ jobId: 'job_1', status: 'processing' })
    const { browser, send } = proxyWith()
    const { jobId } = await browser('alice').start('pdf/create', { objectId: 'obj_1' })
    expect((await send('alice', `/pdf/create/jobs/${jobId}`)).status).toBe(200)
    // Same bytes, another last character: base64url's spare bits set.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const last = alphabet.indexOf(jobId.at(-1)!)
    const respelled = `${jobId.slice(0, -1)}${alphabet[last ^ 1]}`
    expect((await send('alice', `/pdf/create/jobs/${respelled}`)).status).toBe(404)
  })

  it('checks job reads and downloads against the user’s tools as they are now', async () => {
    answer = (request) => {
      if (request.method === 'POST') return created()
      if (new URL(request.url).pathname.startsWith('/v1/artifacts/')) return new Response('%PDF', { headers: { 'content-type': 'application/pdf' } })
      return Response.json({ jobId: 'job_1', status: 'completed', pdf: fileOf('x.pdf') })
    }
    const { browser, send } = proxyWith()
    const job = await browser('alice').run('pdf/create', { objectId: 'obj_1' })
    const link = job.artifacts[0]!
    toolsOf = { alice: ['valuation/rent'] }
    const read = await send('alice', `/pdf/create/jobs/${encodeURIComponent(job.jobId)}`)
    expect(read.status).toBe(403)
    const download = await send('alice', new URL(link).pathname.slice('/api/tools'.length))
    expect(download.status).toBe(403)
    await expect(browser('alice').artifact(link)).rejects.toMatchObject({ status: 403 } satisfies Partial<ToolsError>)
  })
})
