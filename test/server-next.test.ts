// @vitest-environment node
// The Next.js route handlers: one catch-all over one proxy, made on the first request.
import { describe, expect, it, vi } from 'vitest'
import { createMockService, MOCK_KEYS } from '../src/mock/index.js'
import { createRouteHandlers, type ToolsProxy } from '../src/server/index.js'
import { SITE, testProxy } from './support/proxy.js'

const rent = { propertyCategory: 'flat', totalArea: 54, city: 'Kazan' }
const post = (path: string, body: unknown) =>
  new Request(`${SITE}/api/tools/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': 'u_1' }, body: JSON.stringify(body) })

describe('createRouteHandlers', () => {
  it('makes the proxy on the first request, once, and routes GET and POST to it', async () => {
    const service = createMockService()
    const make = vi.fn(() => testProxy(service.fetch, { apiKey: MOCK_KEYS.demo }))
    const { GET, POST } = createRouteHandlers(make)
    expect(make).not.toHaveBeenCalled() // `next build` imports the route: no secrets read yet

    const answer = await POST(post('valuation/rent', rent))
    expect(answer.status).toBe(200)
    const created = await POST(post('pdf/create', { objectId: 'obj_demo' }))
    const { jobId } = (await created.json()) as { jobId: string }
    const read = await GET(new Request(`${SITE}/api/tools/pdf/create/jobs/${jobId}`, { headers: { 'x-user': 'u_1' } }))
    expect(read.status).toBe(200)
    expect(make).toHaveBeenCalledTimes(1)
    expect(service.bills()).toBe(2)
  })

  it('tries again after a failure to make the proxy (a missing setting), and takes a ready proxy', async () => {
    const service = createMockService()
    let attempts = 0
    const { POST } = createRouteHandlers(async () => {
      if (++attempts === 1) throw new Error('Set TOOLS_API_KEY for the tools proxy.')
      return testProxy(service.fetch, { apiKey: MOCK_KEYS.demo })
    })
    await expect(POST(post('valuation/rent', rent))).rejects.toThrow('TOOLS_API_KEY')
    expect((await POST(post('valuation/rent', rent))).status).toBe(200)

    const ready: ToolsProxy = testProxy(service.fetch, { apiKey: MOCK_KEYS.demo })
    expect((await createRouteHandlers(ready).POST(post('valuation/rent', rent))).status).toBe(200)
  })
})
