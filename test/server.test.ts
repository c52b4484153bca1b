// @vitest-environment node
// The proxy over real HTTP on loopback: the browser-side client → the proxy (srvx's Node
// adapter) → the simulated service, itself behind a real HTTP port.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { exampleInput, MOCK_KEYS } from '../src/mock/index.js'
import { createToolsProxy, type ProxyUser, type ToolsProxyOptions } from '../src/server/index.js'
import { createToolsClient, PROXY_ERROR_CODES, TOOLS, type ToolId, type ToolsError } from '../src/tools/index.js'
import { listen, listenMockService } from './support/http.js'
import { LONG_WINDOW } from './support/proxy.js'

const SECRET = 'a-test-secret-of-at-least-thirty-two-characters'
const ALL = TOOLS.map((tool) => tool.id)

let mock: Awaited<ReturnType<typeof listenMockService>>
const closers: (() => Promise<void>)[] = []
beforeAll(async () => {
  mock = await listenMockService()
})
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()))
  mock.service.reset()
})
afterAll(() => mock.close())

/** Users as a partner's session would know them: the test sends the user's name in `x-user`. */
function usersBy(tools: Record<string, readonly ToolId[]>): ToolsProxyOptions['authorize'] {
  return (request) => {
    const user = request.headers.get('x-user')
    return user && tools[user] ? ({ user, tools: tools[user] } satisfies ProxyUser) : null
  }
}

/** A proxy for the simulated service on its own port; `browser(user?)` is a client as a page would make it: no key. */
async function startProxy(options: Partial<ToolsProxyOptions> = {}) {
  const proxy = createToolsProxy({
    baseUrl: mock.baseUrl,
    apiKey: MOCK_KEYS.demo,
    basePath: '/api/tools',
    secret: SECRET,
    authorize: usersBy({ alice: ALL, bob: ALL }),
    // The clients here poll every 5 ms: a person's page never does.
    rate: { requests: 10_000, perMs: 1000 },
    onError: () => {},
    ...options,
  })
  const server = await listen((request) => proxy.handle(request))
  closers.push(server.close)
  const seen: { url: string; headers: string; body: string }[] = []
  const browser = (user?: string, headers: Record<string, string> = {}) =>
    createToolsClient({
      baseUrl: `${server.url}/api/tools`,
      retry: { baseDelay: 1, maxDelay: 5 },
      pollInterval: 5,
      headers: { ...(user ? { 'x-user': user } : {}), ...headers },
      // Everything the browser receives, to look for secrets in.
      fetch: async (input, init) => {
        const response = await fetch(input, init)
        const body = new TextDecoder('latin1').decode(await response.clone().arrayBuffer())
        seen.push({ url: String(input), headers: JSON.stringify([...response.headers]), body })
        return response
      },
    })
  return { url: server.url, browser, seen }
}

const codeOf = (error: unknown) => {
  const client = createToolsClient({ baseUrl: 'http://unused.invalid' })
  return client.interpret.errorCode((error as ToolsError).body)
}

describe('the server proxy', () => {
  it('runs all 13 tools from a browser client with no key, files included; the key and the secret never reach the browser', async () => {
    const { browser, seen } = await startProxy()
    const client = browser('alice', { Cookie: 'session=abc', Authorization: 'Bearer stolen-by-nobody' })
    let downloads = 0
    for (const tool of ALL) {
      const result = await client.run(tool, exampleInput(tool) as never)
      if ('phase' in result) expect(result.phase, tool).toBe('succeeded')
      for (const url of result.artifacts) {
        expect(url, tool).toMatch(/\/api\/tools\/artifacts\//)
        const file = await client.artifact(url)
        expect(file.size, url).toBeGreaterThan(0)
        downloads++
      }
    }
    expect(downloads).toBeGreaterThanOrEqual(8)

    const { log } = mock.service
    expect(log.filter((entry) => entry.kind === 'call')).toHaveLength(13)
    expect(log.filter((entry) => entry.kind === 'artifact')).toHaveLength(downloads)
    // The service saw the server's key on every request, never the browser's Authorization.
    expect(new Set(log.map((entry) => entry.key))).toEqual(new Set([MOCK_KEYS.demo]))
    expect(log.every((entry) => entry.status < 400)).toBe(true)
    expect(mock.service.bills('demo')).toBe(13)

    const everything = JSON.stringify(seen)
    expect(seen.length).toBeGreaterThan(13 + downloads)
    expect(everything).not.toContain(MOCK_KEYS.demo)
    expect(everything).not.toContain(SECRET)
    // The service's own job ids and file links stay on the server too.
    expect(everything).not.toMatch(/job_[0-9a-f]{16}|art_[0-9a-f]{16}/)
    expect(everything).not.toContain(mock.baseUrl)
    // A running job's status is read from the service at most once a second, whoever asks.
  }, 30_000)

  it('serves files with their type, nosniff, and a page only under a sandboxing CSP', async () => {
    const { url, browser } = await startProxy()
    const site = await browser('alice').run('site/create', exampleInput('site/create'))
    const page = await fetch(new URL(site.artifacts[0]!, url), { headers: { 'x-user': 'alice' } })
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('content-security-policy')).toMatch(/^sandbox;/)
    expect(await page.text()).toMatch(/<html/i)

    const report = (await browser('alice').run('pdf/create', exampleInput('pdf/create'))) as { artifacts: string[] }
    const pdf = await fetch(new URL(report.artifacts[0]!, url), { headers: { 'x-user': 'alice' } })
    expect(pdf.headers.get('content-type')).toBe('application/pdf')
    expect(pdf.headers.get('content-security-policy')).toBeNull()
    expect(pdf.headers.get('content-disposition')).toBe('inline; filename="listing.pdf"')
  })

  it('refuses with 401, 403 and 402 of its own, sending nothing to the service', async () => {
    const { browser } = await startProxy({
      authorize: usersBy({ alice: ['valuation/rent'] }),
      limits: { calls: 2, windowMs: LONG_WINDOW },
    })
    const input = exampleInput('valuation/rent')

    const signedOut = await browser().run('valuation/rent', input).catch((error: ToolsError) => error)
    expect(signedOut).toMatchObject({ kind: 'unauthorized', status: 401 })
    expect(codeOf(signedOut)).toBe(PROXY_ERROR_CODES.unauthorized)

    const notAllowed = await browser('alice').run('pdf/create', exampleInput('pdf/create')).catch((error: ToolsError) => error)
    expect(notAllowed).toMatchObject({ kind: 'scope', status: 403 })
    expect(codeOf(notAllowed)).toBe(PROXY_ERROR_CODES.toolNotAllowed)
    expect(mock.service.log).toHaveLength(0)

    await browser('alice').run('valuation/rent', input)
    await browser('alice').run('valuation/rent', input)
    const capped = await browser('alice').run('valuation/rent', input).catch((error: ToolsError) => error)
    expect(capped).toMatchObject({ kind: 'billing', status: 402 })
    expect(codeOf(capped)).toBe(PROXY_ERROR_CODES.userLimit)
    expect(mock.service.log).toHaveLength(2)
    expect(mock.service.bills()).toBe(2)
  })

  it('routes only the service’s routes; a known route with another method is 405 with Allow', async () => {
    const { url } = await startProxy()
    const asAlice = { headers: { 'x-user': 'alice' } }
    for (const [method, path, status, allow] of [
      ['GET', '/api/tools/valuation/rent', 405, 'POST'],
      ['DELETE', '/api/tools/pdf/create', 405, 'POST'],
      ['POST', '/api/tools/artifacts/x', 405, 'GET'],
      ['PUT', '/api/tools/pdf/create/jobs/x', 405, 'GET'],
      ['POST', '/api/tools/no/such-tool', 404, null],
      ['GET', '/api/tools/valuation/rent/jobs/x', 404, null],
      ['GET', '/elsewhere/pdf/create', 404, null],
    ] as const) {
      const response = await fetch(url + path, { method, ...asAlice })
      expect(response.status, `${method} ${path}`).toBe(status)
      expect(response.headers.get('allow'), `${method} ${path}`).toBe(allow)
    }
    expect(mock.service.log).toHaveLength(0)
  })

  it('binds jobs and files to their user: another user gets 404', async () => {
    const { browser } = await startProxy()
    const job = await browser('alice').run('pdf/create', exampleInput('pdf/create'))
    expect(job.artifacts).toHaveLength(1)
    const requestsBefore = mock.service.log.length

    const readJob = await browser('bob').job('pdf/create', 'jobId' in job ? job.jobId : '').catch((error: ToolsError) => error)
    expect(readJob).toMatchObject({ kind: 'not-found', status: 404 })
    const readFile = await browser('bob').artifact(job.artifacts[0]!).catch((error: ToolsError) => error)
    expect(readFile).toMatchObject({ kind: 'not-found', status: 404 })
    // A handle made for another tool, or altered, is as unknown.
    const jobId = 'jobId' in job ? job.jobId : ''
    const otherTool = await browser('alice').job('valuation/report', jobId).catch((error: ToolsError) => error)
    expect(otherTool).toMatchObject({ kind: 'not-found' })
    const altered = `${jobId.slice(0, -2)}${jobId.endsWith('AA') ? 'BB' : 'AA'}`
    expect(await browser('alice').job('pdf/create', altered).catch((error: ToolsError) => error)).toMatchObject({
      kind: 'not-found',
    })
    expect(mock.service.log).toHaveLength(requestsBefore)

    // Its owner still reads both.
    expect((await browser('alice').job('pdf/create', 'jobId' in job ? job.jobId : '')).phase).toBe('succeeded')
    expect((await browser('alice').artifact(job.artifacts[0]!)).size).toBeGreaterThan(0)
  })

  it('expires file links, artifactTtlMs after they were handed out (rounded up to the minute)', async () => {
    const { browser } = await startProxy({ artifactTtlMs: 60_000 })
    const job = await browser('alice').run('pdf/create', exampleInput('pdf/create'))
    // Only the clock moves: the HTTP round trips still run on real timers.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      vi.setSystemTime(Date.now() + 59_000)
      expect((await browser('alice').artifact(job.artifacts[0]!)).size).toBeGreaterThan(0)
      vi.setSystemTime(Date.now() + 61_000)
      const stale = await browser('alice').artifact(job.artifacts[0]!).catch((error: ToolsError) => error)
      expect(stale).toMatchObject({ kind: 'not-found' })
    } finally {
      vi.useRealTimers()
    }
  })

  it('keeps two users’ same Idempotency-Key apart: two bills, no replay across them; a user’s own retry is a replay counted once', async () => {
    const { browser } = await startProxy({ limits: { calls: 1, windowMs: LONG_WINDOW } })
    const input = exampleInput('pdf/create')
    const a = await browser('alice').start('pdf/create', input, { idempotencyKey: 'same-key' })
    const b = await browser('bob').start('pdf/create', input, { idempotencyKey: 'same-key' })
    expect(mock.service.bills()).toBe(2)
    expect(b.jobId).not.toBe(a.jobId)
    expect(mock.service.log.map((entry) => entry.replay)).toEqual([false, false])
    expect(new Set(mock.service.log.map((entry) => entry.idempotencyKey)).size).toBe(2)
    expect(mock.service.log.map((entry) => entry.idempotencyKey)).not.toContain('same-key')

    // Alice's cap is 1 and used, yet resending her own call is a replay: answered with her job (from the store), not counted, not billed.
    const again = await browser('alice').start('pdf/create', input, { idempotencyKey: 'same-key' })
    expect(again.jobId).toBe(a.jobId)
    expect(mock.service.bills()).toBe(2)
    expect((await browser('alice').wait('pdf/create', again.jobId)).phase).toBe('succeeded')
    const fresh = await browser('alice').start('pdf/create', input).catch((error: ToolsError) => error)
    expect(codeOf(fresh)).toBe(PROXY_ERROR_CODES.userLimit)
  })

  it('does not count a call the service refused (429, 403): only what it processed counts', async () => {
    const { browser } = await startProxy({ apiKey: MOCK_KEYS.limited, limits: { calls: 1, windowMs: LONG_WINDOW } })
    const refused = await browser('alice').run('pdf/create', exampleInput('pdf/create')).catch((error: ToolsError) => error)
    expect(refused).toMatchObject({ kind: 'scope', status: 403 })
    expect(codeOf(refused)).toBe('scope_missing')
    // A 429 and the client's retry: one call counted.
    mock.service.inject({ match: { tool: 'valuation/rent' }, fault: 'rate-limit', retryAfterMs: 0 })
    await browser('alice').run('valuation/rent', exampleInput('valuation/rent'))
    expect(mock.service.log.map((entry) => entry.status)).toEqual([403, 429, 200])
    expect(mock.service.bills()).toBe(1)
    const capped = await browser('alice').run('valuation/rent', exampleInput('valuation/rent')).catch((error: ToolsError) => error)
    expect(codeOf(capped)).toBe(PROXY_ERROR_CODES.userLimit)
  })

  it('gives a call back when the page leaves before its upload is all sent', async () => {
    const { url, browser } = await startProxy({ limits: { calls: 1, windowMs: LONG_WINDOW } })
    const counted = async () => (await browser('alice').usage()).used
    const leave = new AbortController()
    // Three chunks, then the upload stalls until the page leaves.
    let chunks = 0
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => (++chunks > 3 ? new Promise(() => {}) : controller.enqueue(new Uint8Array(1024))),
    })
    const upload = fetch(`${url}/api/tools/video/create`, {
      method: 'POST',
      headers: { 'x-user': 'alice', 'content-type': 'multipart/form-data; boundary=x' },
      body,
      duplex: 'half',
      signal: leave.signal,
    } as RequestInit).catch(() => 'left')
    await vi.waitFor(async () => expect(await counted()).toBe(1))
    leave.abort()
    expect(await upload).toBe('left')
    await vi.waitFor(async () => expect(await counted()).toBe(0))
    await browser('alice').run('valuation/rent', exampleInput('valuation/rent'))
    expect(mock.service.bills()).toBe(1)
  })

  it('answers 413 for a body over maxUploadBytes, before or while it streams, and counts nothing', async () => {
    const { url, browser } = await startProxy({ maxUploadBytes: 1000, limits: { calls: 1, windowMs: LONG_WINDOW } })
    const big = new File([new Uint8Array(5000)], 'tour.mp4', { type: 'video/mp4' })
    const declared = await browser('alice').run('video/create', { file: big }).catch((error: ToolsError) => error)
    expect(declared).toMatchObject({ status: 413, kind: 'bad-request' })
    expect(codeOf(declared)).toBe(PROXY_ERROR_CODES.uploadTooLarge)

    // No Content-Length: the count while streaming stops it.
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(500))
        controller.close()
      },
    })
    const streamed = await fetch(`${url}/api/tools/video/create`, {
      method: 'POST',
      headers: { 'x-user': 'alice', 'content-type': 'multipart/form-data; boundary=x' },
      body: chunks,
      duplex: 'half',
    } as RequestInit)
    expect(streamed.status).toBe(413)
    expect(mock.service.bills()).toBe(0)
    // Nothing was counted: the one allowed call still goes through.
    await browser('alice').run('valuation/rent', exampleInput('valuation/rent'))
    expect(mock.service.bills()).toBe(1)
  })

  it('refuses to start without authorize or with a short secret', () => {
    const base = { baseUrl: mock.baseUrl, apiKey: 'k', basePath: '/api/tools', secret: SECRET }
    expect(() => createToolsProxy(base as ToolsProxyOptions)).toThrow(/authorize/)
    expect(() => createToolsProxy({ ...base, secret: 'short', authorize: () => null })).toThrow(/secret/)
  })

  it('never writes the key or the secret in a log line', async () => {
    const lines: string[] = []
    const { browser } = await startProxy({
      baseUrl: 'http://127.0.0.1:9/v1', // nothing listens there
      apiKey: () => MOCK_KEYS.demo,
      onError: (line) => lines.push(line),
    })
    const error = await browser('alice').run('valuation/rent', exampleInput('valuation/rent')).catch((e: ToolsError) => e)
    expect(error).toMatchObject({ kind: 'server', status: 502 })
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.join('\n')).not.toContain(MOCK_KEYS.demo)
    expect(lines.join('\n')).not.toContain(SECRET)
  })
})
