// @vitest-environment node
// What a person has left under the proxy's spend cap: `GET {basePath}/usage`, the window it is
// counted in, and the 402 that says when it ends. The proxy answers in process, on its default
// memoryStore; the clock is the fake one. (Two instances on one Redis: server-scale.test.ts.)
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { type ToolsProxyOptions } from '../src/server/index.js'
import { createToolsClient, PROXY_ERROR_CODES, type ToolsError } from '../src/tools/index.js'
import { SITE, testProxy } from './support/proxy.js'

const HOUR = 3_600_000
const rent = { propertyCategory: 'flat', totalArea: 50, city: 'Berlin' }
/** What the stand-in service answers a call with. */
let answer: () => Response
let calls = 0
const service: typeof fetch = async () => {
  calls++
  return answer()
}

beforeEach(() => {
  answer = () => Response.json({ value: 1 })
  calls = 0
  // Only the clock is fake: a quarter past ten, in the window that ends at eleven.
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(new Date('2026-11-26T10:15:00Z'))
})
afterEach(() => vi.useRealTimers())

function proxyWith(options: Partial<ToolsProxyOptions> = {}) {
  const proxy = testProxy(service, options)
  const browser = (user?: string) =>
    createToolsClient({
      baseUrl: `${SITE}/api/tools`,
      retry: false,
      headers: user ? { 'x-user': user } : {},
      fetch: (input, init) => proxy.handle(new Request(input, init)),
    })
  const run = (user: string) => browser(user).run('valuation/rent', rent).catch((error: ToolsError) => error)
  return { proxy, browser, run }
}

describe('GET {basePath}/usage', () => {
  it('tells the signed-in person their calls in this window, the cap and when the window ends', async () => {
    const { browser, run } = proxyWith({ limits: { calls: 3, windowMs: HOUR } })
    expect(await browser('alice').usage()).toEqual({ used: 0, limit: 3, resetAt: '2026-11-26T11:00:00.000Z' })
    await run('alice')
    await run('alice')
    expect(await browser('alice').usage()).toEqual({ used: 2, limit: 3, resetAt: '2026-11-26T11:00:00.000Z' })
    // Never another person's figures.
    expect(await browser('bob').usage()).toEqual({ used: 0, limit: 3, resetAt: '2026-11-26T11:00:00.000Z' })
    expect(calls).toBe(2)
  })

  it('answers 401 to a person signed out, and no limit where the proxy sets none', async () => {
    const { browser } = proxyWith({ limits: { calls: 3, windowMs: HOUR } })
    const signedOut = await browser().usage().catch((error: ToolsError) => error)
    expect(signedOut).toMatchObject({ kind: 'unauthorized', status: 401 })
    expect(browser().interpret.errorCode((signedOut as ToolsError).body)).toBe(PROXY_ERROR_CODES.unauthorized)
    expect(await proxyWith().browser('alice').usage()).toEqual({ used: 0, limit: null, resetAt: null })
  })

  it('is a GET, never cached on the way', async () => {
    const { proxy } = proxyWith({ limits: { calls: 3, windowMs: HOUR } })
    const read = await proxy.handle(new Request(`${SITE}/api/tools/usage`, { headers: { 'x-user': 'alice' } }))
    expect(read.headers.get('cache-control')).toBe('private, no-store')
    const posted = await proxy.handle(new Request(`${SITE}/api/tools/usage`, { method: 'POST', headers: { 'x-user': 'alice' } }))
    expect(posted.status).toBe(405)
    expect(posted.headers.get('allow')).toBe('GET')
  })

  it('does not count a refused call: over the cap, or refused by the service', async () => {
    const { browser, run } = proxyWith({ limits: { calls: 1, windowMs: HOUR } })
    answer = () => Response.json({ error: { code: 'quota_exceeded' } }, { status: 402 })
    expect(await run('alice')).toMatchObject({ kind: 'billing', status: 402 })
    expect((await browser('alice').usage()).used).toBe(0)
    answer = () => Response.json({ value: 1 })
    await run('alice')
    expect(await run('alice')).toMatchObject({ kind: 'billing', status: 402 })
    expect(await run('alice')).toMatchObject({ kind: 'billing', status: 402 })
    expect((await browser('alice').usage()).used).toBe(1)
    expect(calls).toBe(2)
  })

  it('starts a new window when the old one ends', async () => {
    const { browser, run } = proxyWith({ limits: { calls: 1, windowMs: HOUR } })
    await run('alice')
    expect(await run('alice')).toMatchObject({ kind: 'billing' })
    vi.setSystemTime(new Date('2026-11-26T10:59:59.999Z'))
    expect(await run('alice')).toMatchObject({ kind: 'billing' })
    vi.setSystemTime(new Date('2026-11-26T11:00:00Z'))
    expect(await browser('alice').usage()).toEqual({ used: 0, limit: 1, resetAt: '2026-11-26T12:00:00.000Z' })
    expect(await run('alice')).toMatchObject({ data: { value: 1 } })
    expect(await browser('alice').usage()).toEqual({ used: 1, limit: 1, resetAt: '2026-11-26T12:00:00.000Z' })
  })
})

describe('the 402 user_limit answer', () => {
  it('says when the person can run again: in its body, in Retry-After, and on the error', async () => {
    const { proxy, run } = proxyWith({ limits: { calls: 1, windowMs: HOUR } })
    await run('alice')
    const refused = await proxy.handle(
      new Request(`${SITE}/api/tools/valuation/rent`, {
        method: 'POST',
        headers: { 'x-user': 'alice', 'content-type': 'application/json' },
        body: JSON.stringify(rent),
      }),
    )
    expect(refused.status).toBe(402)
    expect(refused.headers.get('retry-after')).toBe(String(45 * 60))
    expect(await refused.json()).toEqual({
      error: {
        code: PROXY_ERROR_CODES.userLimit,
        message: expect.any(String),
        limit: 1,
        windowMs: HOUR,
        resetAt: '2026-11-26T11:00:00.000Z',
      },
    })
    const error = (await run('alice')) as ToolsError
    expect(error).toMatchObject({ kind: 'billing', retryAfter: 45 * 60_000 })
  })
})
