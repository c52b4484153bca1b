// @vitest-environment node
// Whatever a request's body does, the process lives: over real HTTP (srvx, as docs/server.md
// recommends), a body over a route's cap is answered 413 and the next request is answered too.
// `.ci/run` runs this file on Node 20, 24 and 26: cancelling Node's request stream mid-body threw
// ERR_INVALID_STATE outside any handler on 20 and 24, ending the process.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exampleInput, MOCK_KEYS } from '../src/mock/index.js'
import { createToolsProxy } from '../src/server/index.js'
import { createToolsClient, TOOLS } from '../src/tools/index.js'
import { listen, listenMockService } from './support/http.js'
import { SECRET } from './support/proxy.js'
import { rawPost } from './support/rawHttp.js'

const MB = 1024 * 1024
const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

/** What was thrown outside any handler: the monitor sees it before the test runner does. */
const uncaught: unknown[] = []
const record = (error: unknown) => uncaught.push(error)
beforeAll(() => void process.on('uncaughtExceptionMonitor', record))
afterAll(() => void process.off('uncaughtExceptionMonitor', record))

describe('a body over the cap', () => {
  let mock: Awaited<ReturnType<typeof listenMockService>>
  let proxy: Awaited<ReturnType<typeof listen>>
  beforeAll(async () => {
    mock = await listenMockService()
    const handler = createToolsProxy({
      baseUrl: mock.baseUrl,
      apiKey: MOCK_KEYS.demo,
      basePath: '/api/tools',
      secret: SECRET,
      authorize: (request) => (request.headers.get('x-user') ? { user: request.headers.get('x-user')!, tools: TOOLS.map((tool) => tool.id) } : null),
      maxUploadBytes: 2 * MB,
      webhooks: { secret: WEBHOOK_SECRET },
      // Many calls a second from one person here: the point is the bodies, not the rate.
      rate: { requests: 10_000, perMs: 1000 },
      onError: () => {},
    })
    proxy = await listen((request) => handler.handle(request))
  })
  afterAll(async () => {
    await proxy.close()
    await mock.close()
  })

  /**
   * The proxy still answers (a route it does not have, a real call through to the service), and
   * nothing was thrown outside a handler: alone in a process, Node would have ended there.
   */
  const stillAnswers = async () => {
    expect((await fetch(`${proxy.url}/api/tools/nothing`)).status).toBe(404)
    const client = createToolsClient({ baseUrl: `${proxy.url}/api/tools`, headers: { 'x-user': 'alice' }, retry: false })
    expect(await client.run('valuation/express', exampleInput('valuation/express'))).toBeTruthy()
    expect(uncaught.map(String)).toEqual([])
  }
  // A webhook whose headers could be the service's, so its body is read (the signature is checked after).
  const webhookHeaders = () => ({
    'webhook-id': `msg_${Math.random().toString(36).slice(2)}`,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': `v1,${btoa(String.fromCharCode(...new Uint8Array(32).fill(7)))}`,
  })
  const json = { 'content-type': 'application/json', 'x-user': 'alice' }

  it.each([
    ['a JSON call declaring 6 MiB', '/valuation/rent', () => ({ ...json, 'content-length': String(6 * MB) }), 6 * MB],
    ['a JSON call of 6 MiB with no declared length', '/valuation/rent', () => ({ ...json, 'transfer-encoding': 'chunked' }), 6 * MB],
    ['a webhook declaring 6 MiB', '/webhooks', () => ({ ...webhookHeaders(), 'content-type': 'application/json', 'content-length': String(6 * MB) }), 6 * MB],
    ['a webhook of 6 MiB with no declared length', '/webhooks', () => ({ ...webhookHeaders(), 'content-type': 'application/json', 'transfer-encoding': 'chunked' }), 6 * MB],
    ['an upload declaring more than maxUploadBytes', '/video/create', () => ({ 'content-type': 'multipart/form-data; boundary=x', 'x-user': 'alice', 'content-length': String(12 * MB) }), 12 * MB],
    ['an upload streaming past maxUploadBytes', '/video/create', () => ({ 'content-type': 'multipart/form-data; boundary=x', 'x-user': 'alice', 'transfer-encoding': 'chunked' }), 12 * MB],
  ])('%s is answered 413, and the process goes on answering', async (_, path, headers, bytes) => {
    // Three times: the client keeps its connection alive, so the next one must be read too.
    for (let round = 0; round < 3; round++) {
      const sent = rawPost(`${proxy.url}/api/tools${path}`, headers(), bytes)
      expect(await sent.status).toBe(413)
      sent.close()
    }
    await stillAnswers()
  }, 30_000)

  it.each([
    ['a webhook with no signature headers', '/webhooks', {}, 401],
    ['a call from nobody signed in', '/valuation/rent', { 'content-type': 'application/json' }, 401],
    ['a path that is no route', '/nothing', {}, 404],
  ])('%s is answered at once, or within a second, and its connection closed', async (_, path, headers, status) => {
    // 1 MiB declared, 1 KiB sent, then nothing: a proxy that read it away would hold the connection as
    // long as the sender. A call is read for a second first (a page whose session ended sees its 401).
    const sent = rawPost(`${proxy.url}/api/tools${path}`, { ...headers, 'content-length': String(MB) }, MB, 1024)
    expect(await sent.status).toBe(status)
    await sent.closed
    await stillAnswers()
  })

  it('lives through a sender that goes away mid-body', async () => {
    for (const path of ['/valuation/rent', '/webhooks', '/video/create']) {
      const headers = path === '/webhooks' ? { ...webhookHeaders(), 'content-length': String(MB) } : { ...json, 'content-length': String(MB) }
      const sent = rawPost(`${proxy.url}/api/tools${path}`, headers, MB, 100 * 1024)
      await new Promise((resolve) => setImmediate(resolve))
      sent.close()
      await sent.status
    }
    await stillAnswers()
  })
})
