/** Per ms: the pace before anything is learnt (with a burst of 10), and the floor. */
const START_RATE = 20 / 1000
const FLOOR = 0.5 / 1000

/**
 * The rate a key's requests may leave at: a token bucket whose rate is learnt. Before any
 * refusal it allows a burst of 10 at 20 a second, doubling each second while requests queue; the
 * first refusal sets it to what the service accepted before refusing; each further refusal cuts
 * it by a tenth, and it rises 1% a second while requests queue.
 */
export function createPaceRate(now = Date.now()) {
  let rate = START_RATE
  let learnt = false
  let capacity = 10
  let tokens = capacity
  let filled = now
  /** Requests the service took since `since`: what the next refusal learns the rate from. */
  let accepted = 0
  let since = now

  return {
    /** Tops the bucket up to `now`; `queued`: demand exceeds the pace, so the pace probes up. */
    refill(now: number, queued: boolean) {
      if (queued) rate *= (learnt ? 1.01 : 2) ** ((now - filled) / 1000)
      tokens = Math.min(capacity, tokens + (now - filled) * rate)
      filled = now
    },
    /** Takes a token, if one is there. */
    take(): boolean {
      if (tokens < 1) return false
      tokens--
      return true
    },
    /** Milliseconds until the next token. */
    untilNext: () => (1 - tokens) / rate,
    /** Milliseconds until the `count`th request in line may leave, counting the tokens at hand. */
    untilTurn: (count: number) => Math.max(0, count - tokens) / rate,
    /** The service took a paced request. */
    accepted() {
      accepted++
    },
    /** The service refused a request until `until`: learn from it (once per pause). */
    refused(until: number) {
      if (learnt) rate *= 0.9
      else if (accepted > 1) rate = accepted / Math.max(1, until - since)
      rate = Math.max(FLOOR, rate)
      learnt ||= accepted > 1
      capacity = 1
      tokens = Math.min(tokens, 1)
      accepted = 0
      since = until
    },
  }
}

export type PaceRate = ReturnType<typeof createPaceRate>
