import type { Usage } from '../../tools/index.js'
import { SAFE_HEADERS } from '../answers.js'
import type { ProxyContext } from '../context.js'
import type { Caller } from '../guards.js'
import { keys } from '../keys.js'
import { capWindow } from '../money.js'

/** The person's standing: calls counted in this window, the cap, and when the window ends. */
export async function usageOf({ store, settings: { limits } }: ProxyContext, { storeId }: Caller, now = Date.now()): Promise<Usage> {
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
