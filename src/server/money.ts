// The money rule, in one place: what counts under a user's spend cap, and when a call is given back.
import type { Tool } from '../tools/index.js'
import { errorAnswer } from './answers.js'
import type { JobSnapshot } from './jobs/jobSnapshot.js'
import { keys } from './keys.js'
import type { ProxyLimits } from './options.js'
import { together, type ProxyStore, type StoreOperation } from './stores/store.js'
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

/** What a reservation under the cap gives: how to give the call back (null: over the cap), and what a repeat of a counted creation knows. */
export interface Reservation {
  giveBack: (() => Promise<void>) | null
  /** The other operations' answers, as `before` listed them. */
  answers: unknown[]
  /** This call holds its key's mark: its job's id goes there (`markOf`), for a repeat to be told from a new job. */
  marked?: string
  /** A repeat of a creation counted before: its key's mark in the store. */
  repeat?: string
  /** The job that mark held (undefined while its first call waits for its answer). */
  repeatOf?: MarkedJob
}

/** The job a key's mark holds: its id, and its first snapshot (its creation's answer), written beside it. */
export interface MarkedJob {
  jobId: string
  /** Written in the same trip as the job's own keys, which may land a moment later: a repeat answers from it meanwhile. */
  first?: JobSnapshot
}

/** The mark's text before its first call's job id is known. */
const PENDING = '-'

/** A mark's text as a job: `{ jobId, first }` as JSON, or (written before the first snapshot went with it) the id alone. */
function markedJobOf(text: string): MarkedJob {
  if (!text.startsWith('{')) return { jobId: text }
  const { jobId, first } = JSON.parse(text) as MarkedJob
  return { jobId, first }
}

/**
 * The job a repeat's first call made, as its mark holds it: waited for (a store read every 50 ms,
 * up to `waitMs`) while that call's answer is on its way; undefined when none comes.
 */
export async function firstJobOf(store: ProxyStore, mark: string, waitMs: number): Promise<MarkedJob | undefined> {
  for (let waited = 0; ; waited += 50) {
    const held = await store.get(mark)
    if (held !== PENDING) return held === undefined ? undefined : markedJobOf(held)
    if (waited >= waitMs) return undefined
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * Counts a billable call against the user's cap (`limits`; `user` is their store id) in the window
 * of `now`; resolves with how to give it back, or null when over the cap. Every call is counted,
 * a repeat of a job creation's Idempotency-Key too: the service may keep keys per path or forget
 * them, so only an answer naming the job its first call made (`repeatOf`) shows a replay, which
 * the caller then gives back.
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

/**
 * The store's write of a first call's job on its key's mark, for its repeats: its id and its first
 * snapshot (in the creation's trip, beside the job's own keys, which a repeat may not find yet).
 */
export const markOf = (limits: ProxyLimits, mark: string, jobId: string, first: JobSnapshot): StoreOperation => ({
  op: 'set',
  key: mark,
  value: JSON.stringify({ jobId, first } satisfies MarkedJob),
  ttlMs: limits.windowMs,
})

/** `reserve`, with `before` (the request's other store work) in the same trip to the store: what they answered too. */
export async function reserveWith(
  store: ProxyStore,
  limits: ProxyLimits | undefined,
  user: string,
  tool: Tool,
  idempotencyKey: string | undefined,
  now: number,
  before: readonly StoreOperation[],
): Promise<Reservation> {
  const nothing = async () => {}
  if (!limits) return { giveBack: nothing, answers: [...(await together(store, before))] }
  // The key sent on names the user and the tool (see handles), so its mark does too.
  const mark = tool.mode === 'deferred' && idempotencyKey ? keys.counted(user, idempotencyKey) : undefined
  const { index, endsAt } = capWindow(limits, now)
  const count = (delta: number) => ({ op: 'increment', key: keys.calls(user, index), delta, ttlMs: endsAt - now }) as const
  const at = before.length
  const marking: StoreOperation[] = mark ? [{ op: 'get', key: mark }, { op: 'hold', key: mark, value: PENDING, ttlMs: limits.windowMs }] : []
  const answers = await together(store, [...before, ...marking, count(1)])
  const held = mark ? (answers[at] as string | undefined) : undefined
  const claimed = mark !== undefined && held === undefined
  const repeatOf = held !== undefined && held !== PENDING ? markedJobOf(held) : undefined
  // The window the call was counted in gets it back, even once the next one has begun; a mark only by the call that made it.
  const giveBack = async () => {
    await together(store, claimed ? [count(-1), { op: 'release', key: mark }] : [count(-1)])
  }
  const rest = answers.slice(0, at)
  const repeat = claimed ? undefined : mark
  if ((answers.at(-1) as number) > limits.calls) {
    await giveBack()
    return { giveBack: null, answers: rest, repeat, repeatOf }
  }
  return { giveBack, answers: rest, marked: claimed ? mark : undefined, repeat, repeatOf }
}

/** The 402 `user_limit` answer: it says when the window ends, in the body and as `Retry-After`. */
export function userLimitAnswer(limits: ProxyLimits, now = Date.now()): Response {
  const { endsAt } = capWindow(limits, now)
  return errorAnswer(402, 'userLimit', 'This user has made all the calls allowed for now.', {
    details: { limit: limits.calls, windowMs: limits.windowMs, resetAt: new Date(endsAt).toISOString() },
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((endsAt - now) / 1000))) },
  })
}
