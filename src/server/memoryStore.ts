import type { ProxyStore, StoreListener } from './store.js'

/** One process's store, in memory: the default, right for a single instance. */
export function memoryStore(): ProxyStore {
  const entries = new Map<string, { value: number; text?: string; expiresAt: number }>()
  const live = (key: string) => {
    const entry = entries.get(key)
    if (entry && entry.expiresAt <= Date.now()) {
      entries.delete(key)
      return undefined
    }
    return entry
  }
  const channels = new Map<string, Set<StoreListener>>()
  let writes = 0
  /** Drops expired entries now and then, so a long-lived process does not keep every user forever. */
  const sweep = () => {
    if (++writes % 1000 !== 0) return
    const now = Date.now()
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key)
  }
  return {
    async increment(key, delta, ttlMs) {
      sweep()
      const entry = live(key)
      if (!entry) {
        if (delta < 0) return 0
        entries.set(key, { value: delta, expiresAt: Date.now() + ttlMs })
        return delta
      }
      entry.value += delta
      return entry.value
    },
    async claim(key, ttlMs) {
      sweep()
      if (live(key)) return false
      entries.set(key, { value: 1, expiresAt: Date.now() + ttlMs })
      return true
    },
    async release(key) {
      entries.delete(key)
    },
    async get(key) {
      return live(key)?.text
    },
    async set(key, text, ttlMs) {
      sweep()
      entries.set(key, { value: 0, text, expiresAt: Date.now() + ttlMs })
    },
    async hold(key, text, ttlMs) {
      sweep()
      const held = live(key)?.text
      if (held !== undefined) return held
      entries.set(key, { value: 0, text, expiresAt: Date.now() + ttlMs })
      return text
    },
    async lease(key, owner, ttlMs) {
      sweep()
      const held = live(key)?.text
      if (held !== undefined && held !== owner) return false
      entries.set(key, { value: 0, text: owner, expiresAt: Date.now() + ttlMs })
      return true
    },
    async publish(channel, message) {
      // Delivered after the publisher's turn, as a network store would.
      for (const listener of channels.get(channel) ?? []) queueMicrotask(() => listener.message(message))
    },
    async subscribe(channel, listener) {
      let listeners = channels.get(channel)
      if (!listeners) channels.set(channel, (listeners = new Set()))
      // A wrapper per call: the same listener subscribed twice stops twice.
      const entry: StoreListener = { message: (message) => listener.message(message) }
      listeners.add(entry)
      return async () => {
        listeners.delete(entry)
        if (listeners.size === 0) channels.delete(channel)
      }
    },
  }
}
