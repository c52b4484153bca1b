import type { Usage } from '../../tools/index.js'
import { errorAnswer, SAFE_HEADERS } from '../answers.js'
import type { ProxyContext } from '../context.js'
import type { Caller } from '../guards.js'
import { keys } from '../keys.js'
import { capWindow } from '../money.js'
import type { ProxyLimits } from '../options.js'

/** The person's standing: calls counted in this window, the cap, and when the window ends. */
export async function usageOf({ store, limits }: ProxyContext, { storeId }: Caller, now = Date.now()): Promise<Usage> {
  if (!limits) return { used: 0, limit: null, resetAt: null }
  const { index, endsAt } = capWindow(limits, now)
  // A delta of 0 reads the counter without creating one.
  const used = await store.increment(keys.calls(storeId, index), 0, endsAt - now)
  // A call over the cap is counted for a moment before it is given back: never shown as used.
  return { used: Math.min(used, limits.calls), limit: limits.calls, resetAt: new Date(endsAt).toISOString() }
}

/** `GET {basePath}/usage`: the signed-in person's standing, never cached on the way. */
export async function usageRoute(context: ProxyContext, _request: Request, user: Caller): Promise<Response> {
  return Response.json(await usageOf(context, user), { headers: SAFE_HEADERS })
}

/** The 402 `user_limit` answer: it says when the window ends, in the body and as `Retry-After`. */
export function userLimitAnswer(limits: ProxyLimits, now = Date.now()): Response {
  const { endsAt } = capWindow(limits, now)
  return errorAnswer(402, 'userLimit', 'This user has made all the calls allowed for now.', {
    details: { limit: limits.calls, windowMs: limits.windowMs, resetAt: new Date(endsAt).toISOString() },
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((endsAt - now) / 1000))) },
  })
}
