import type { Usage } from '../tools/index.js'
import { errorAnswer, SAFE_HEADERS } from './answers.js'
import type { ProxyLimits } from './proxy.js'
import type { ProxyStore } from './store.js'

/** Whose standing, under which cap, when: what the spend cap's functions are given. */
export interface CapContext {
  store: ProxyStore
  limits: ProxyLimits | undefined
  user: string
  /** Milliseconds since the epoch. */
  now: number
}

/**
 * The window `now` falls in. Windows are `windowMs` long and counted from the Unix epoch, so
 * every instance agrees on them with no store round trip (a day's window ends at midnight UTC).
 */
function windowOf({ windowMs }: ProxyLimits, now: number) {
  const index = Math.floor(now / windowMs)
  return { index, endsAt: (index + 1) * windowMs }
}

/** The user's counter for one window: it expires as the window ends. */
const counterOf = (user: string, index: number) => `calls:${user}:${index}`

/** The person's standing: calls counted in this window, the cap, and when the window ends. */
export async function usageOf({ store, limits, user, now }: CapContext): Promise<Usage> {
  if (!limits) return { used: 0, limit: null, resetAt: null }
  const { index, endsAt } = windowOf(limits, now)
  // A delta of 0 reads the counter without creating one.
  const used = await store.increment(counterOf(user, index), 0, endsAt - now)
  // A call over the cap is counted for a moment before it is given back: never shown as used.
  return { used: Math.min(used, limits.calls), limit: limits.calls, resetAt: new Date(endsAt).toISOString() }
}

/** `GET {basePath}/usage`: the signed-in person's standing, never cached on the way. */
export async function usageAnswer(context: CapContext): Promise<Response> {
  return Response.json(await usageOf(context), { headers: SAFE_HEADERS })
}

/**
 * Counts a billable call against the user's cap. Resolves with how to give it back (the call
 * was not billed), or with the 402 `user_limit` answer, which says when the window ends.
 * `replay` names a job creation sent again with its Idempotency-Key: counted once.
 */
export async function reserveCall(
  context: CapContext & { replay?: string },
): Promise<{ giveBack: () => Promise<void> } | { refused: Response }> {
  const { store, limits, user, now, replay } = context
  const nothing = { giveBack: async () => {} }
  if (!limits) return nothing
  // The service replays such a call, it does not bill it again.
  const mark = replay && `counted:${replay}`
  if (mark && !(await store.claim(mark, limits.windowMs))) return nothing
  const { index, endsAt } = windowOf(limits, now)
  const counter = counterOf(user, index)
  // The window the call was counted in gets it back, even once the next one has begun.
  const giveBack = async () => {
    await store.increment(counter, -1, endsAt - now)
    if (mark) await store.release(mark)
  }
  if ((await store.increment(counter, 1, endsAt - now)) <= limits.calls) return { giveBack }
  await giveBack()
  const resetAt = new Date(endsAt).toISOString()
  return {
    refused: errorAnswer(402, 'userLimit', 'This user has made all the calls allowed for now.', {
      details: { limit: limits.calls, windowMs: limits.windowMs, resetAt },
      headers: { 'Retry-After': String(Math.max(1, Math.ceil((endsAt - now) / 1000))) },
    }),
  }
}
