// @vitest-environment node
// A partner's own mistakes, met while setting the proxy up: each is told to the developer (the
// answer's body, `onError`, the console in development) in words that say what to change, and
// never reads as a person's (a signed-in person is not told to sign in).
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ToolsProxyOptions } from '../src/server/index.js'
import { PROXY_ERROR_CODES } from '../src/tools/index.js'
import { SITE, testProxy } from './support/proxy.js'

afterEach(() => {
  vi.unstubAllGlobals()
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const service: typeof fetch = async () => Response.json({ rent: { monthly: 1 } })
const rentCall = (init: RequestInit & { headers?: Record<string, string> } = {}) =>
  new Request(`${SITE}/api/tools/valuation/rent`, { method: 'POST', body: '{"city":"Kazan"}', ...init, headers: { 'content-type': 'application/json', ...init.headers } })

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
