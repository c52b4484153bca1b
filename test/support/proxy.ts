import { createToolsProxy, type ToolsProxyOptions } from '../../src/server/index.js'
import { TOOLS, type ToolId } from '../../src/tools/index.js'

export const SERVICE = 'https://tools.cabinet.test/v1'
export const SITE = 'https://partner.test'
export const SECRET = 'a-test-secret-of-at-least-thirty-two-characters'
const ALL = TOOLS.map((tool) => tool.id)
/** A spend cap's window whose end no test run meets (windows are counted from the epoch: this one ends in 2970). */
export const LONG_WINDOW = 1000 * 365 * 86_400_000

/**
 * A proxy in process for the stand-in service `fetch`, mounted at /api/tools: the user is the
 * `x-user` header, with every tool unless `toolsOf(user)` says otherwise; rates no test meets.
 */
export function testProxy(fetch: typeof globalThis.fetch, options: Partial<ToolsProxyOptions> = {}, toolsOf: (user: string) => readonly ToolId[] | undefined = () => undefined) {
  return createToolsProxy({
    baseUrl: SERVICE,
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: SECRET,
    authorize: (request) => {
      const user = request.headers.get('x-user')
      return user ? { user, tools: [...(toolsOf(user) ?? ALL)] } : null
    },
    rate: { requests: 100_000, perMs: 1000 },
    streamRate: { requests: 100_000, perMs: 1000 },
    fetch,
    onError: () => {},
    ...options,
  })
}
