import { errorAnswer } from './answers.js'
import { refuse } from './bodies.js'
import type { ProxyContext } from './context.js'
import { keys, storeIdOf } from './keys.js'
import type { ProxyUser } from './options.js'
import { ProxyError } from './proxyError.js'
import { together } from './stores/store.js'

/** Refuses a POST that a page of another site sent: servers (no such headers) pass. */
export function crossSite(request: Request, allowedOrigins: readonly string[]): boolean {
  if (request.headers.get('sec-fetch-site') === 'cross-site') return true
  const origin = request.headers.get('origin')
  if (origin === null) return false
  if (allowedOrigins.includes(origin)) return false
  try {
    // Host, not scheme: behind a TLS-terminating balancer the request may arrive as http.
    return new URL(origin).host !== (request.headers.get('host') ?? new URL(request.url).host)
  } catch {
    return true // `Origin: null` (a sandboxed frame, a file) or garbage
  }
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
