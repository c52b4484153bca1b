import { errorAnswer } from './answers.js'
import type { ProxyContext } from './context.js'
import { keys, storeIdOf } from './keys.js'
import type { ProxyUser } from './options.js'

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
  const user = await context.options.authorize(request)
  if (!user || typeof user.user !== 'string' || user.user === '' || !Array.isArray(user.tools)) return undefined
  return { user: user.user, tools: user.tools, storeId: storeIdOf(user.user) }
}

/** Counts a request against the user's rate; the seconds to wait when over it. */
export async function overRate({ store, rate }: ProxyContext, { storeId }: Caller): Promise<number | undefined> {
  const now = Date.now()
  const window = Math.floor(now / rate.perMs)
  const count = await store.increment(keys.rate(storeId, window), 1, rate.perMs)
  return count > rate.requests ? Math.max(1, Math.ceil(((window + 1) * rate.perMs - now) / 1000)) : undefined
}

export const toolNotAllowed = (tool: string) =>
  errorAnswer(403, 'toolNotAllowed', `The tool ${tool} is not enabled for this user.`, { details: { tool } })
