// The money rule, in one place: what counts under a user's spend cap, and when a call is given back.
import type { Tool } from '../tools/index.js'
import { keys } from './keys.js'
import type { ProxyLimits } from './options.js'
import { together, type ProxyStore, type StoreOperation } from './store.js'
import { neverArrived, type UpstreamFailure } from './upstream.js'

/**
 * What became of a call, as far as billing goes: the service's answer (its status), `'unsent'`
 * when the service cannot have processed it, `'lost'` when it may have and no answer came back.
 */
export type CallOutcome = { status: number } | 'unsent' | 'lost'

/** Whether the service may bill a call: a refusal (4xx) was not processed, nor was an unsent call; a lost answer stays counted. */
export function billable(outcome: CallOutcome): boolean {
  if (outcome === 'unsent') return false
  if (outcome === 'lost') return true
  return outcome.status < 400 || outcome.status >= 500
}

/**
 * A call that came to nothing. Nothing can have been billed before the body was whole
 * (`bodySent` false), when the service was never reached, or when it answered with a redirect
 * (an upload's, which fetch refuses to follow).
 */
export function outcomeOfFailure(bodySent: boolean, error: unknown, failure: UpstreamFailure): CallOutcome {
  return !bodySent || neverArrived(error) || failure.reason === 'redirect' ? 'unsent' : 'lost'
}

/**
 * The cap's window `now` falls in. Windows are `windowMs` long and counted from the Unix epoch, so
 * every instance agrees on them with no store round trip (a day's window ends at midnight UTC).
 */
export function capWindow({ windowMs }: ProxyLimits, now: number): { index: number; endsAt: number } {
  const index = Math.floor(now / windowMs)
  return { index, endsAt: (index + 1) * windowMs }
}

/**
 * Counts a billable call against the user's cap (`limits`; `user` is their store id) in the window
 * of `now`; resolves with how to give it back, or null when over the cap. A job creation sent
 * again with its Idempotency-Key is replayed by the service, not billed: it counts once.
 */
export async function reserve(
  store: ProxyStore,
  limits: ProxyLimits | undefined,
  user: string,
  tool: Tool,
  idempotencyKey: string | undefined,
  now = Date.now(),
): Promise<(() => Promise<void>) | null> {
  return (await reserveWith(store, limits, user, tool, idempotencyKey, now, [])).giveBack
}

/** `reserve`, with `before` (the request's other store work) in the same trip to the store: what they answered too. */
export async function reserveWith(
  store: ProxyStore,
  limits: ProxyLimits | undefined,
  user: string,
  tool: Tool,
  idempotencyKey: string | undefined,
  now: number,
  before: readonly StoreOperation[],
): Promise<{ giveBack: (() => Promise<void>) | null; answers: unknown[] }> {
  const nothing = async () => {}
  if (!limits) return { giveBack: nothing, answers: [...(await together(store, before))] }
  const mark = tool.mode === 'deferred' && idempotencyKey ? keys.counted(idempotencyKey) : undefined
  const { index, endsAt } = capWindow(limits, now)
  const count = (delta: number) => ({ op: 'increment', key: keys.calls(user, index), delta, ttlMs: endsAt - now }) as const
  // The window the call was counted in gets it back, even once the next one has begun.
  const giveBack = async () => {
    await together(store, mark ? [count(-1), { op: 'release', key: mark }] : [count(-1)])
  }
  // Counted only when its key is claimed now.
  const at = before.length
  const answers = await together(store, [...before, ...(mark ? [{ op: 'claim', key: mark, ttlMs: limits.windowMs } as const, { ...count(1), if: at }] : [count(1)])])
  const [claimed, counted] = mark ? answers.slice(at) : [true, answers[at]]
  if (!claimed) return { giveBack: nothing, answers: answers.slice(0, at) }
  if ((counted as number) > limits.calls) {
    await giveBack()
    return { giveBack: null, answers: answers.slice(0, at) }
  }
  return { giveBack, answers: answers.slice(0, at) }
}
