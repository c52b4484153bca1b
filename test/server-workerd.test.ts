// @vitest-environment node
// The proxy on Cloudflare's runtime: workerd itself, through Miniflare, behind real HTTP, in front
// of the simulated service on its own port. What workerd does differently (no 'error' redirect
// mode, a refused upload's unread body, a body that ends short) is met here, not assumed.
import { Miniflare } from 'miniflare'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exampleInput, MOCK_KEYS } from '../src/mock/index.js'
import { createToolsClient, PROXY_ERROR_CODES } from '../src/tools/index.js'
import { listen, listenMockService } from './support/http.js'
import { buildProxyWorker, COMPATIBILITY_DATE } from './support/workerd.js'

const MAX_UPLOAD = 1024 * 1024
const SECRET = 'a-test-secret-of-at-least-thirty-two-characters'
const workers: Miniflare[] = []
let script: string
let site: string
let mock: Awaited<ReturnType<typeof listenMockService>>

/** The proxy in workerd, in front of `service`, on a port of its own; resolves with its URL. */
async function startWorker(service: string) {
  const mf = new Miniflare({
    modules: true,
    scriptPath: script,
    compatibilityDate: COMPATIBILITY_DATE,
    bindings: { TOOLS_BASE_URL: service, TOOLS_API_KEY: MOCK_KEYS.demo, TOOLS_PROXY_SECRET: SECRET, MAX_UPLOAD_BYTES: String(MAX_UPLOAD) },
    host: '127.0.0.1',
    port: 0,
  })
  workers.push(mf)
  return (await mf.ready).href.replace(/\/+$/, '')
}

beforeAll(async () => {
  script = await buildProxyWorker('tools-proxy-worker')
  mock = await listenMockService()
  site = await startWorker(mock.baseUrl)
}, 120_000)
afterAll(async () => {
  await Promise.all(workers.map((mf) => mf.dispose()))
  await mock?.close()
})

const browser = (user?: string) =>
  createToolsClient({ baseUrl: `${site}/api/tools`, retry: false, pollInterval: 5, headers: user ? { 'x-user': user } : {} })

describe('the proxy on workerd', () => {
  it('answers a synchronous call', async () => {
    const result = await browser('alice').run('valuation/rent', exampleInput('valuation/rent'))
    expect(result.data).toBeTruthy()
    expect(mock.service.bills()).toBeGreaterThanOrEqual(1)
  })

  it('follows a deferred job to its end and downloads its file', async () => {
    const job = await browser('alice').run('pdf/create', exampleInput('pdf/create'))
    expect(job.phase).toBe('succeeded')
    expect(job.artifacts[0]).toMatch(/\/api\/tools\/artifacts\//)
    const file = await browser('alice').artifact(job.artifacts[0]!)
    expect(file.size).toBeGreaterThan(0)
  }, 30_000)

  it('passes a multipart upload on whole', async () => {
    const before = mock.service.bills()
    const job = await browser('alice').run('photo/enhance', exampleInput('photo/enhance'))
    expect(job.phase).toBe('succeeded')
    expect(mock.service.bills()).toBe(before + 1)
  }, 30_000)

  it('answers a refused upload with its refusal, not a reset connection', async () => {
    const body = new Uint8Array(4 * 1024 * 1024)
    const response = await fetch(`${site}/api/tools/photo/enhance`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    })
    expect(response.status).toBe(401)
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.unauthorized)
  })

  it('never forwards an upload cut short at maxUploadBytes as if whole', async () => {
    // A service that tells a body that arrived whole from one whose connection was cut.
    const bodies: { whole: boolean; bytes: number }[] = []
    const service = await listen(async (request) => {
      let bytes = 0
      try {
        const reader = request.body!.getReader()
        for (let next = await reader.read(); !next.done; next = await reader.read()) bytes += next.value.byteLength
        bodies.push({ whole: true, bytes })
      } catch {
        bodies.push({ whole: false, bytes })
      }
      return Response.json({ jobId: 'job_1', status: 'pending', requestId: 'req_1' }, { status: 202 })
    })
    try {
      const proxy = await startWorker(`${service.url}/v1`)
      const chunk = new Uint8Array(256 * 1024)
      let sent = 0
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent > 2 * MAX_UPLOAD) return controller.close()
          sent += chunk.length
          controller.enqueue(chunk)
        },
      })
      // A stream has no Content-Length: the proxy finds the size out as it goes.
      const response = await fetch(`${proxy}/api/tools/video/create`, {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'multipart/form-data; boundary=b', 'x-user': 'alice' },
        duplex: 'half',
      } as RequestInit)
      expect(response.status).toBe(413)
      // Give the service the time a cut connection takes to be seen.
      for (let turn = 0; turn < 50 && bodies.length === 0; turn++) await new Promise((resolve) => setTimeout(resolve, 20))
      expect(bodies.filter((body) => body.whole)).toEqual([])
    } finally {
      await service.close()
    }
  })
})
