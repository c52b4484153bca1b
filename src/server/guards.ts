import { errorAnswer } from './answers.js'
import { refuse } from './bodies.js'
import type { ProxyContext } from './context.js'
import { keys, storeIdOf } from './keys.js'
import type { ProxyUser } from './options.js'
import { ProxyError } from './proxyError.js'
import { together } from './stores/store.js'

/** What a refused cross-site POST showed: its `Origin` (null when it sent none) and the host it was sent to. */
export interface CrossSiteRequest {
  origin: string | null
  host: string
}

/**
 * A POST that a page of another site sent, with what it showed; undefined when it may pass: servers
 * (no such headers) and pages of an origin in `allowedOrigins` pass.
 */
export function crossSite(request: Request, allowedOrigins: readonly string[]): CrossSiteRequest | undefined {
  const origin = request.headers.get('origin')
  if (origin !== null && allowedOrigins.includes(origin)) return undefined
  // Host, not scheme: behind a TLS-terminating balancer the request may arrive as http.
  const host = request.headers.get('host') ?? new URL(request.url).host
  if (request.headers.get('sec-fetch-site') === 'cross-site') return { origin, host }
  if (origin === null) return undefined
  try {
    return new URL(origin).host !== host ? { origin, host } : undefined
  } catch {
    return { origin, host } // `Origin: null` (a sandboxed frame, a file) or garbage
  }
}

/** The 403 `cross_site`, naming the origin seen and the setting that allows it; told once on the console in development. */
export function crossSiteAnswer(context: ProxyContext, request: Request, { origin, host }: CrossSiteRequest): Response {
  const seen = origin === null ? 'it came from a page of another site (Sec-Fetch-Site: cross-site) with no Origin' : `its Origin, ${origin}, is not this proxy’s host (${host})`
  const message = `This request came from another site: ${seen}, and the proxy's allowedOrigins (the other origins whose pages may POST) does not list it.`
  tellDeveloperOnce(
    context,
    'crossSite',
    `[tools proxy] ${request.method} ${new URL(request.url).pathname} → 403 cross_site: ${seen}. ` +
      `A dev server's proxy that rewrites Host (Vite's server.proxy shorthand, changeOrigin: true; Next's rewrites) does this: ` +
      `add ${origin ?? 'the page’s origin'} to the proxy's allowedOrigins, or keep the Host (changeOrigin: false). Told once, outside production.`,
  )
  return errorAnswer(403, 'crossSite', message, { details: { origin } })
}

/** Development, as the process says it (NODE_ENV not `production`); a runtime with no `process` is taken as production. */
function inDevelopment(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return env !== undefined && env.NODE_ENV !== 'production'
}

/** A console warning for the developer, once per proxy and subject, and only in development. */
function tellDeveloperOnce(context: ProxyContext, subject: string, line: string): void {
  if (!inDevelopment() || context.state.told.has(subject)) return
  context.state.told.add(subject)
  console.warn(line)
}

/** A signed-in user as the routes know them: `authorize`'s answer, and the id the store knows them by. */
export interface Caller extends ProxyUser {
  storeId: string
}

/**
 * The user `authorize` names, or undefined when it names nobody (null or undefined). Anything else
 * is the partner's mistake, not a signed-out person: a ProxyError (500) saying what it returned.
 */
export async function signedInUser(context: ProxyContext, request: Request): Promise<Caller | undefined> {
  const user: unknown = await context.settings.authorize(request)
  if (user === null || user === undefined) return undefined
  if (!isProxyUser(user)) {
    const { pathname } = new URL(request.url)
    throw new ProxyError(500, 'authorizeInvalid', 'The site’s sign-in check (authorize) answered in a form the proxy cannot use; its log says more.', {
      report: `${request.method} ${pathname}: \`authorize\` returned ${shapeOf(user)}; it must return { user: string, tools: string[] } (who is signed in, and the tools they may use) or null (nobody is).`,
    })
  }
  return { user: user.user, tools: user.tools, storeId: storeIdOf(user.user) }
}

const isProxyUser = (value: unknown): value is ProxyUser =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as ProxyUser).user === 'string' &&
  (value as ProxyUser).user !== '' &&
  Array.isArray((value as ProxyUser).tools) &&
  (value as ProxyUser).tools.every((tool) => typeof tool === 'string')

/** What a value is, told by its types and never its contents (a log line must not carry a person's id). */
function shapeOf(value: unknown, depth = 0): string {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `${[...new Set(value.map((each) => shapeOf(each, depth + 1)))].join(' | ')}[]`
  if (value === null || typeof value === 'boolean') return String(value)
  if (typeof value === 'string') return value === '' ? "''" : 'string'
  if (typeof value !== 'object') return typeof value
  if (depth > 0) return 'object'
  const entries = Object.entries(value).slice(0, 8)
  return entries.length === 0 ? '{}' : `{ ${entries.map(([key, each]) => `${/^\w+$/.test(key) ? key : JSON.stringify(key)}: ${shapeOf(each, depth + 1)}`).join(', ')} }`
}

/**
 * A request counted against one of the user's rates (`rate`, or `streamRate` for event streams
 * opened): the store's operation, and the seconds to wait when the count it answers is over it.
 */
export function rateCount(context: ProxyContext, { storeId }: Caller, which: 'rate' | 'streamRate' = 'rate') {
  const rate = context.settings[which]
  const now = Date.now()
  const window = Math.floor(now / rate.perMs)
  const key = which === 'rate' ? keys.rate(storeId, window) : keys.streamRate(storeId, window)
  return {
    operation: { op: 'increment', key, delta: 1, ttlMs: rate.perMs } as const,
    wait: (count: number) => (count > rate.requests ? Math.max(1, Math.ceil(((window + 1) * rate.perMs - now) / 1000)) : undefined),
  }
}

/**
 * Counts a request against one of the user's rates; the seconds to wait when over it. A count
 * never goes down within its window: a user found over it is refused with no store trip until
 * the window ends (per instance, a bounded number of users remembered: state.ts).
 */
export async function overRate(context: ProxyContext, user: Caller, which: 'rate' | 'streamRate' = 'rate'): Promise<number | undefined> {
  const { operation, wait } = rateCount(context, user, which)
  const { overRate } = context.state
  if (overRate.has(operation.key)) return wait(Infinity)
  const [count] = await together(context.store, [operation])
  const answer = wait(count)
  if (answer !== undefined) overRate.remember(operation.key, true)
  return answer
}

/**
 * A call refused before its place under the cap: still counted under the rate, which may refuse
 * it first. Answered once some of its body is read (refuse): the page sees it, not a reset.
 */
export async function refusedCounted(context: ProxyContext, request: Request, user: Caller, answer: Response): Promise<Response> {
  const wait = await overRate(context, user)
  return refuse(request, wait === undefined ? answer : rateLimited(wait), context.settings.timeoutMs)
}

export const rateLimited = (wait: number) =>
  errorAnswer(429, 'rateLimited', 'Too many requests; try again shortly.', { headers: { 'Retry-After': String(wait) } })

export const toolNotAllowed = (tool: string) =>
  errorAnswer(403, 'toolNotAllowed', `The tool ${tool} is not enabled for this user.`, { details: { tool } })
