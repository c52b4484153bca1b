// What one proxy instance keeps and changes as it answers: counts and caches, each with its own methods.

/** Signed links remembered, at most. */
const SIGNED_LINKS_KEPT = 10_000
/** Users found over their rate remembered, at most. */
const OVER_RATE_KEPT = 10_000

/** A map that forgets everything once it holds `most` entries: a cache whose misses cost a recomputation. */
function boundedCache<T>(most: number) {
  const entries = new Map<string, T>()
  return {
    get: (key: string) => entries.get(key),
    has: (key: string) => entries.has(key),
    remember(key: string, value: T) {
      if (entries.size >= most) entries.clear()
      entries.set(key, value)
    },
  }
}

/** The event streams open here, per user. */
function openStreams() {
  const open = new Map<string, number>()
  return {
    /** Takes one of the user's `most` places; false when they hold them all. */
    take(user: string, most: number): boolean {
      const held = open.get(user) ?? 0
      if (held >= most) return false
      open.set(user, held + 1)
      return true
    },
    leave(user: string) {
      const left = (open.get(user) ?? 1) - 1
      if (left > 0) open.set(user, left)
      else open.delete(user)
    },
  }
}

/** Unverified webhook bodies being read now that took a place (those still arriving after a moment), and when one was last refused. */
function webhookReading() {
  let reading = 0
  let refusedAt = 0
  return {
    /** Takes one of `most` places; false (and noted as refused) when all are taken. */
    take(most: number): boolean {
      if (reading >= most) {
        refusedAt = Date.now()
        return false
      }
      reading++
      return true
    },
    giveBack() {
      reading--
    },
    /** A delivery that could have been the service's was refused unread (no place, or too slow). */
    refused() {
      refusedAt = Date.now()
    },
    /** Whether one was refused in the last `withinMs`: watchers then read jobs sooner. */
    refusedWithin: (withinMs: number) => Date.now() - refusedAt < withinMs,
  }
}

/** The instance's state: built once per proxy, apart from its settings. */
export function createProxyState() {
  return {
    /** Links signed lately, by user, tool, file and expiry: the same link is not signed twice. */
    signedLinks: boundedCache<string>(SIGNED_LINKS_KEPT),
    /** The rate keys (a user's, in one window) found over their rate lately: refused with no store trip until the window ends. */
    overRate: boundedCache<true>(OVER_RATE_KEPT),
    streams: openStreams(),
    webhookReading: webhookReading(),
    /** What the developer was told on the console already (once each). */
    told: new Set<string>(),
  }
}

export type ProxyState = ReturnType<typeof createProxyState>
