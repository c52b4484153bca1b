import { openPaceChannel } from './paceChannel.js'
import { createPaceRate } from './paceRate.js'
import type { SenderHost } from './senderHost.js'

/**
 * One pace for every request of a key. A 429 pauses them all until its Retry-After (plus a
 * little jitter, so tabs and clients do not resume together); after that, calls (and reads,
 * once one met a 429) leave one by one at a learnt rate (paceRate.ts). Job-creating calls leave
 * before reads. Tabs of one origin share refusals (paceChannel.ts).
 */

interface Ticket {
  call: boolean
  deadline: number
  go(): void
  fail(until: number): void
  hold?(until: number): void
}

/** How a request waits in line. */
export interface TakeOptions {
  signal?: AbortSignal
  /** For the `aborted` error. */
  tool?: string
  /** No pause is waited for past this time: the request fails with `expire(until)` instead. */
  deadline: number
  expire: (until: number) => unknown
  /** Called when the request is held, with when it should leave (ms since the epoch). */
  onHold?: (until: number) => void
}

/** The line requests wait in: calls first, then reads, each in arrival order. */
interface Line {
  queue: Ticket[]
  abortError: SenderHost['abortError']
  /** Lets go whoever may leave now. */
  pump(): void
  /** Tells each held request when it should leave. */
  tell(): void
}

/** Puts a request in line; settles when it may leave, when a pause outlasts its budget, or when it is aborted. */
function enqueue({ queue, pump, tell, abortError }: Line, call: boolean, options: TakeOptions) {
  return new Promise<void>((resolve, reject) => {
    const { signal } = options
    const leave = () => {
      signal?.removeEventListener('abort', abort)
      queue.splice(queue.indexOf(ticket) >>> 0, 1)
    }
    const abort = () => {
      leave()
      reject(abortError(options.tool, signal?.reason))
    }
    const ticket: Ticket = {
      call,
      deadline: options.deadline,
      hold: options.onHold,
      go: () => (leave(), resolve()),
      fail: (until) => (leave(), reject(options.expire(until))),
    }
    // Leaving is harmless before the ticket is queued.
    if (signal?.aborted) return abort()
    signal?.addEventListener('abort', abort, { once: true })
    const firstRead = call ? queue.findIndex((other) => !other.call) : -1
    queue.splice(firstRead < 0 ? queue.length : firstRead, 0, ticket)
    pump()
    if (queue.includes(ticket)) tell()
  })
}

export function createPacer(
  { abortError, MAX_TIMER }: Pick<SenderHost, 'abortError' | 'MAX_TIMER'>,
  channelName?: string,
  random = Math.random,
) {
  /** Calls first, then reads, each in arrival order. */
  const queue: Ticket[] = []
  const pace = createPaceRate()
  let readsPaced = false
  let pausedUntil = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  const paced = (ticket: Ticket) => ticket.call || readsPaced
  const later = (ms: number) => (timer = setTimeout(pump, Math.min(ms, MAX_TIMER)))

  function pump() {
    clearTimeout(timer)
    const now = Date.now()
    if (now < pausedUntil) return later(pausedUntil - now)
    pace.refill(now, queue.some(paced))
    let blocked = false
    for (const ticket of [...queue]) {
      if (paced(ticket) && (blocked || !pace.take())) {
        blocked = true
        continue
      }
      ticket.go()
    }
    if (blocked) later(pace.untilNext())
  }

  /** Tells each held request when it should leave, as far as can be known now; fails those the pause outlasts. */
  function tell() {
    const now = Date.now()
    const start = Math.max(now, pausedUntil)
    let ahead = 0
    for (const ticket of [...queue]) {
      const until = paced(ticket) ? start + pace.untilTurn(++ahead) : start
      if (pausedUntil > ticket.deadline) ticket.fail(pausedUntil)
      else if (until - now >= 500) ticket.hold?.(Math.round(until))
    }
  }

  /** The service refused a request of the key (here or in another tab) until `until`. */
  function refused(until: number) {
    const now = Date.now()
    until = Math.min(until, now + 86_400_000)
    if (now >= pausedUntil) pace.refused(until)
    if (until <= pausedUntil) return
    // Jitter: up to a tenth of the pause (at most 500 ms).
    pausedUntil = until + random() * Math.min(500, (until - now) / 10)
    tell()
    pump()
  }

  // Another tab's refusal is this tab's too: the limit is the key's.
  const channel = openPaceChannel(channelName, refused)

  return {
    /** Resolves when a request may leave. */
    take: (call: boolean, options: TakeOptions) => enqueue({ queue, pump, tell, abortError }, call, options),

    /** Records an answer: `retryAfter` (ms) for a 429, nothing for any other. */
    answer(call: boolean, retryAfter?: number) {
      if (retryAfter === undefined) {
        if (call || readsPaced) pace.accepted()
        return
      }
      readsPaced ||= !call
      const until = Date.now() + retryAfter
      channel?.tell(until)
      refused(until)
    },
  }
}

export type Pacer = ReturnType<typeof createPacer>
