import type { MockRateLimit } from './types.js'

/** Fixed-window counters of tool calls per key. */
export function createRateLimiter(settings: MockRateLimit | false) {
  const windows = new Map<string, { start: number; count: number }>()
  return {
    /** Counts a call by `key`; returns the seconds to wait when it is over the limit, else undefined. */
    admit(key: string, now: number): number | undefined {
      if (!settings) return undefined
      let window = windows.get(key)
      if (!window || now - window.start >= settings.windowMs) {
        window = { start: now, count: 0 }
        windows.set(key, window)
      }
      window.count++
      if (window.count <= settings.limit) return undefined
      return settings.retryAfterSeconds ?? Math.max(1, Math.ceil((window.start + settings.windowMs - now) / 1000))
    },
    clear() {
      windows.clear()
    },
  }
}
