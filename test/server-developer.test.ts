// @vitest-environment node
// A partner's own mistakes, met while setting the proxy up: each is told to the developer (the
// answer's body, `onError`, the console in development) in words that say what to change, and
// never reads as a person's (a signed-in person is not told to sign in).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { createServer } from 'vite'
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest'
import { exampleInput } from '../src/mock/index.js'
import type { ToolsProxyOptions } from '../src/server/index.js'
import { PROXY_ERROR_CODES } from '../src/tools/index.js'
import { blocks } from './support/docs.js'
import { listen } from './support/http.js'
import { root } from './support/program.js'
import { SITE, testProxy } from './support/proxy.js'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const service: typeof fetch = async () => Response.json({ rent: { monthly: 1 } })
const RENT = JSON.stringify(exampleInput('valuation/rent'))
const rentCall = (init: RequestInit & { headers?: Record<string, string> } = {}) =>
  new Request(`${SITE}/api/tools/valuation/rent`, { method: 'POST', body: RENT, ...init, headers: { 'content-type': 'application/json', ...init.headers } })

describe('an `authorize` that answers in the wrong shape', () => {
  const answers: [string, unknown, RegExp][] = [
    ['a user without tools', { user: 'pat' }, /returned \{ user: string \}/],
    ['tools as one string', { user: 'pat', tools: 'valuation/rent' }, /returned \{ user: string, tools: string \}/],
    ['an id alone', 'pat', /returned string;/],
    ['true', true, /returned true;/],
    ['an empty id', { user: '', tools: [] }, /returned \{ user: '', tools: \[\] \}/],
  ]

  it.each(answers)('is a 500 told to onError, not a 401 "sign in": %s', async (_name, returned, said) => {
    const lines: string[] = []
    const proxy = testProxy(service, { authorize: (() => returned) as ToolsProxyOptions['authorize'], onError: (line) => void lines.push(line) })
    for (const request of [rentCall(), new Request(`${SITE}/api/tools/usage`)]) {
      const answer = await proxy.handle(request)
      expect(answer.status).toBe(500)
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.authorizeInvalid)
    }
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(said)
    expect(lines[0]).toMatch(/^\[tools proxy\] POST \/api\/tools\/valuation\/rent: `authorize` returned .* it must return \{ user: string, tools: string\[\] \}.* or null/)
    // What it returned is told by its shape, never the id it carried.
    expect(lines.join('\n')).not.toMatch(/pat/)
  })

  it('still answers 401 for nobody signed in (null or undefined)', async () => {
    for (const returned of [null, undefined]) {
      const onError = vi.fn()
      const answer = await testProxy(service, { authorize: () => returned, onError }).handle(rentCall())
      expect(answer.status).toBe(401)
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe(PROXY_ERROR_CODES.unauthorized)
      expect(onError).not.toHaveBeenCalled()
    }
  })
})

type Refusal = { error: { code: string; message: string; origin?: string | null } }

describe('a POST refused as cross_site', () => {
  it('names the origin it saw and allowedOrigins, and lets an allowed origin through even from another site', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const proxy = testProxy(service)
    const fromDevPage = { origin: 'http://localhost:5173', 'sec-fetch-site': 'same-origin', 'x-user': 'alice' }
    const refused = await proxy.handle(rentCall({ headers: fromDevPage }))
    expect(refused.status).toBe(403)
    const { error } = (await refused.json()) as Refusal
    expect(error).toMatchObject({ code: PROXY_ERROR_CODES.crossSite, origin: 'http://localhost:5173' })
    expect(error.message).toMatch(/http:\/\/localhost:5173.*allowedOrigins/)
    const allowed = testProxy(service, { allowedOrigins: ['http://localhost:5173'] })
    expect((await allowed.handle(rentCall({ headers: fromDevPage }))).status).toBe(200)
    expect((await allowed.handle(rentCall({ headers: { ...fromDevPage, 'sec-fetch-site': 'cross-site' } }))).status).toBe(200)
    warn.mockRestore()
  })

  it('warns the developer once on the console, and never in production', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const proxy = testProxy(service)
    for (let call = 0; call < 3; call++) expect((await proxy.handle(rentCall({ headers: { origin: 'https://other.test', 'x-user': 'alice' } }))).status).toBe(403)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatch(/cross_site.*https:\/\/other\.test.*allowedOrigins/)
    vi.stubEnv('NODE_ENV', 'production')
    const deployed = testProxy(service)
    expect((await deployed.handle(rentCall({ headers: { origin: 'https://other.test', 'x-user': 'alice' } }))).status).toBe(403)
    expect(warn).toHaveBeenCalledTimes(1)
  })
})

describe('the proxy behind Vite’s dev server (docs/server.md)', () => {
  const dir = join(root, 'test/.dev-server')
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const viteBlock = blocks.find((block) => block.page === 'docs/server.md' && block.code.includes("from 'vite'"))!

  /** The proxy on a port of its own, and Vite's dev server in front of it with the docs' config, `rewrite` applied to it. */
  async function devServer(options: Partial<ToolsProxyOptions>, rewrite: (config: string) => string) {
    const proxy = await listen((request) => testProxy(service, options).handle(request))
    mkdirSync(dir, { recursive: true })
    const configFile = join(dir, `vite.config.${Math.random().toString(36).slice(2)}.ts`)
    writeFileSync(configFile, rewrite(viteBlock.code.replaceAll('http://127.0.0.1:8801', proxy.url)))
    const vite = await createServer({ configFile, root: dir, logLevel: 'silent', server: { host: '127.0.0.1', port: 0, ws: false } })
    await vite.listen()
    const page = `http://127.0.0.1:${(vite.httpServer!.address() as AddressInfo).port}`
    /** A POST from the dev page, as its browser sends it to its own origin. */
    const post = () =>
      fetch(`${page}/api/tools/valuation/rent`, {
        method: 'POST',
        body: RENT,
        headers: { 'content-type': 'application/json', origin: page, 'sec-fetch-site': 'same-origin', 'x-user': 'alice' },
      })
    return { page, post, close: async () => (await vite.close(), await proxy.close()) }
  }
  /** The block's proxy entry written as Vite's shorthand: `{ target, changeOrigin: true }`, Host rewritten to the target. */
  const shorthand = (config: string) => config.replace(/\{ target: ('[^']+'), changeOrigin: false \}/, '$1')

  it('with the shorthand (Host rewritten), refuses the page’s POST naming its origin and allowedOrigins', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const dev = await devServer({}, shorthand)
    try {
      const answer = await dev.post()
      expect(answer.status).toBe(403)
      const { error } = (await answer.json()) as Refusal
      expect(error.origin).toBe(dev.page)
      expect(error.message).toContain(dev.page)
      expect(error.message).toContain('allowedOrigins')
      expect(warn).toHaveBeenCalledTimes(1)
      expect(warn.mock.calls[0]![0]).toContain(dev.page)
    } finally {
      await dev.close()
    }
  }, 60_000)

  it('with the shorthand and the page’s origin allowed, or with the docs’ config as written, passes the page’s POST', async () => {
    let dev = await devServer({}, (config) => config)
    try {
      expect(viteBlock.code).toContain('changeOrigin: false')
      expect((await dev.post()).status).toBe(200)
    } finally {
      await dev.close()
    }
    const pageOrigin = { allowedOrigins: [] as string[] }
    dev = await devServer(pageOrigin, shorthand)
    try {
      pageOrigin.allowedOrigins.push(dev.page)
      expect((await dev.post()).status).toBe(200)
    } finally {
      await dev.close()
    }
  }, 60_000)
})

describe('a proxy whose state cannot outlive its isolate', () => {
  it('warns once on Workers with no store (docs/cloudflare.md), and never on Node', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    testProxy(service)
    expect(warn).not.toHaveBeenCalled()
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' })
    // Made per request, as the snippet that lost the cap did: told once, not per request.
    for (let request = 0; request < 3; request++) testProxy(service)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(warn.mock.calls[0]![0]).toMatch(/docs\/cloudflare\.md/)
  })
})
