/**
 * One pace for every request of a key. A 429 pauses them all until its Retry-After (plus a
 * little jitter, so tabs and clients do not resume together); after that, requests of the
 * lanes that met a 429 leave one by one at a learnt rate: estimated from what the service
 * accepted before refusing, cut by a tenth at each further 429, raised 1% a second while
 * requests queue. Job-creating calls leave before reads. Tabs of one origin share pauses
 * through BroadcastChannel where it exists.
 */

/** Calls create jobs and go first; reads (polls, downloads) after. */
export type Lane = 'call' | 'read'

/** The longest delay setTimeout honours; a longer one fires at once. */
export const MAX_TIMER = 2 ** 31 - 1

interface Ticket {
  lane: Lane
  deadline: number
  go(): void
  /** The request would wait for a pause past its deadline: `until` is when the pause ends. */
  expire(until: number): void
  hold?(until: number): void
}

/** What a request is told while it waits in line. */
export interface TakeOptions {
  signal?: AbortSignal
  /** No pause is waited for past this time: the request fails instead (see `expire`). */
  deadline: number
  /** Called when the request is held, with when it should leave (ms since the epoch). */
  onHold?: (until: number) => void
  /** The error to reject with when a pause outlasts the deadline. */
  expire: (until: number) => unknown
  /** The error to reject with when the signal fires. */
  abort: () => unknown
}

/** Per second: the rate before anything is learnt, its growth (doubling, then 1%), the floor. */
const START_RATE = 20 / 1000
const FLOOR = 0.5 / 1000
const START_BURST = 10

export function createPacer(channelName?: string, random = Math.random) {
  const queues: Record<Lane, Ticket[]> = { call: [], read: [] }
  /** Calls are always paced; reads only once one has met a 429. */
  let readsLimited = false
  let rate = START_RATE
  let learnt = false
  let capacity = START_BURST
  let tokens = START_BURST
  let filled = Date.now()
  let pausedUntil = 0
  /** Accepted answers of limited lanes since `since`: what the next 429 learns the rate from. */
  let accepted = 0
  let since = Date.now()
  let timer: ReturnType<typeof setTimeout> | undefined

  // Another tab's 429 is this tab's too: the limit is the key's.
  const channel = openChannel(channelName, (until) => refused(until))

  /** The service refused a request of the key (here or in another tab) until `until`. */
  function refused(until: number) {
    const now = Date.now()
    if (now >= pausedUntil) {
      // Before anything is learnt, what was accepted over the time until the service takes
      // requests again is the rate; afterwards each refusal cuts the pace by a tenth.
      if (learnt) rate *= 0.9
      else if (accepted >= 2) rate = accepted / Math.max(1, until - since)
      rate = Math.max(FLOOR, rate)
      learnt ||= accepted >= 2
      capacity = 1
      tokens = Math.min(tokens, 1)
      accepted = 0
      since = until
    }
    pause(until)
  }

  function schedule(ms: number) {
    timer = setTimeout(pump, Math.min(Math.max(0, ms), MAX_TIMER))
  }

  function pump() {
    clearTimeout(timer)
    timer = undefined
    const now = Date.now()
    if (now < pausedUntil) return schedule(pausedUntil - now)
    // A queue means demand exceeds the pace: the pace probes up.
    if (queues.call.length || (readsLimited && queues.read.length)) {
      rate *= (learnt ? 1.01 : 2) ** ((now - filled) / 1000)
    }
    tokens = Math.min(capacity, tokens + (now - filled) * rate)
    filled = now
    for (;;) {
      const ticket = queues.call[0] ?? (readsLimited ? queues.read[0] : undefined)
      if (!ticket) break
      if (tokens < 1) {
        schedule((1 - tokens) / rate)
        break
      }
      tokens -= 1
      queues[ticket.lane].shift()
      ticket.go()
    }
    // Reads that never met a 429 are not paced, only paused.
    if (!readsLimited) for (const ticket of queues.read.splice(0)) ticket.go()
  }

  /** Tells each held request when it should leave, as far as can be known now. */
  function tell() {
    const now = Date.now()
    const start = Math.max(now, pausedUntil)
    let ahead = -tokens
    for (const ticket of [...queues.call, ...queues.read]) {
      const until = ticket.lane === 'call' || readsLimited ? start + Math.max(0, ++ahead) / rate : start
      if (until > ticket.deadline && pausedUntil > ticket.deadline) ticket.expire(pausedUntil)
      else if (until - now >= 500) ticket.hold?.(Math.round(until))
    }
  }

  function pause(until: number) {
    if (until <= pausedUntil) return
    // Jitter: up to a tenth of the pause (at most 500 ms), so waiters elsewhere do not resume together.
    pausedUntil = until + random() * Math.min(500, (until - Date.now()) / 10)
    tell()
    pump()
  }

  return {
    take(lane: Lane, options: TakeOptions): Promise<void> {
      return new Promise((resolve, reject) => {
        const { signal } = options
        if (signal?.aborted) return reject(options.abort())
        const done = () => {
          signal?.removeEventListener('abort', onAbort)
          const queue = queues[ticket.lane]
          const at = queue.indexOf(ticket)
          if (at >= 0) queue.splice(at, 1)
        }
        const onAbort = () => {
          done()
          reject(options.abort())
        }
        const ticket: Ticket = {
          lane,
          deadline: options.deadline,
          go: () => {
            done()
            resolve()
          },
          expire: (until) => {
            done()
            reject(options.expire(until))
          },
          hold: options.onHold,
        }
        signal?.addEventListener('abort', onAbort, { once: true })
        queues[lane].push(ticket)
        pump()
        if (queues[lane].includes(ticket)) tell()
      })
    },

    /** Records an answer: `retryAfter` (ms) for a 429, nothing for any other. */
    answer(lane: Lane, retryAfter?: number) {
      const now = Date.now()
      if (retryAfter === undefined) {
        if (lane === 'call' || readsLimited) accepted++
        return
      }
      if (lane === 'read') readsLimited = true
      channel?.postMessage(now + retryAfter)
      refused(now + retryAfter)
    },

    /** When every request of the key may go again (0 when not paused). */
    get pausedUntil() {
      return pausedUntil
    },
  }
}

export type Pacer = ReturnType<typeof createPacer>

/** The tabs' shared line, where the platform has one; never keeps a server process alive. */
function openChannel(name: string | undefined, onPause: (until: number) => void) {
  if (!name || typeof BroadcastChannel !== 'function') return undefined
  try {
    const channel = new BroadcastChannel(name)
    channel.onmessage = ({ data }: MessageEvent<unknown>) => {
      if (typeof data === 'number' && Number.isFinite(data)) onPause(data)
    }
    ;(channel as { unref?: () => void }).unref?.()
    return channel
  } catch {
    return undefined
  }
}

/** FNV-1a, for naming a key's channel without the key in it. */
export function hashText(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(36)
}
