import { errorAnswer } from './answers.js'
import { refuse } from './bodies.js'
import type { ProxyContext } from './context.js'
import { keys, storeIdOf } from './keys.js'
import type { ProxyUser } from './options.js'
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

/** The user `authorize` names, when it names one properly. */
export async function signedInUser(context: ProxyContext, request: Request): Promise<Caller | undefined> {
  const user = await context.settings.authorize(request)
  if (!user || typeof user.user !== 'string' || user.user === '' || !Array.isArray(user.tools)) return undefined
  return { user: user.user, tools: user.tools, storeId: storeIdOf(user.user) }
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
