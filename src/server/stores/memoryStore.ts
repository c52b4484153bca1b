import { inOrder, runOperation, type ProxyStore, type StoreListener } from './store.js'

export interface MemoryStoreOptions {
  /** Entries kept at most; past it, the oldest written goes first (held ones, `hold`'s, after all others). Default 100,000 (some tens of MB). */
  maxEntries?: number
}

/**
 * One process's store, in memory: the default, for one instance and for development. It holds at
 * most `maxEntries`: under a flood the oldest go (a spend counter among them), so several
 * instances, or a cap that must hold whatever happens, need `redisStore`.
 */
export function memoryStore({ maxEntries = 100_000 }: MemoryStoreOptions = {}): ProxyStore {
  if (!(maxEntries >= 1)) throw new TypeError('memoryStore: `maxEntries` must be 1 or more.')
  /** `held`: written by `hold` (who a file was first issued to, a job's first end), dropped only after the rest. */
  type Entry = { value: number; text?: string; items?: string[]; expiresAt: number; held?: boolean }
  const entries = new Map<string, Entry>()
  /** Writes an entry as the newest; past the limit, drops what expired, then the oldest: held entries last. */
  const put = (key: string, entry: Entry) => {
    entries.delete(key)
    entries.set(key, entry)
    if (entries.size <= maxEntries) return
    dropExpired()
    // A tenth at a time, so a store full of live entries is not swept on every write.
    const target = maxEntries - Math.ceil(maxEntries / 10)
    for (const heldToo of [false, true]) {
      for (const [oldest, { held }] of entries) {
        if (entries.size <= target) return
        if (heldToo || !held) entries.delete(oldest)
      }
    }
  }
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
  const dropExpired = () => {
    const now = Date.now()
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key)
  }
  /** Drops expired entries now and then, so a long-lived process does not keep every user forever. */
  const sweep = () => {
    if (++writes % 1000 === 0) dropExpired()
  }
  // Each operation answers at once: a batch runs whole before any other request's operations.
  const now = {
    increment(key: string, delta: number, ttlMs: number) {
      sweep()
      const entry = live(key)
      if (!entry) {
        if (delta <= 0) return 0
        put(key, { value: delta, expiresAt: Date.now() + ttlMs })
        return delta
      }
      entry.value += delta
      return entry.value
    },
    claim(key: string, ttlMs: number) {
      sweep()
      if (live(key)) return false
      put(key, { value: 1, expiresAt: Date.now() + ttlMs })
      return true
    },
    release(key: string) {
      entries.delete(key)
    },
    get: (key: string) => live(key)?.text,
    set(key: string, text: string, ttlMs: number) {
      sweep()
      put(key, { value: 0, text, expiresAt: Date.now() + ttlMs })
    },
    hold(key: string, text: string, ttlMs: number) {
      sweep()
      const held = live(key)?.text
      if (held !== undefined && held !== text) return held
      // Held already by the same value: renewed (a file's owner keeps it as long as they use it).
      put(key, { value: 0, text, expiresAt: Date.now() + ttlMs, held: true })
      return text
    },
    lease(key: string, owner: string, ttlMs: number) {
      sweep()
      const held = live(key)?.text
      if (held !== undefined && held !== owner) return false
      put(key, { value: 0, text: owner, expiresAt: Date.now() + ttlMs })
      return true
    },
    push(key: string, value: string, max: number, ttlMs: number) {
      sweep()
      put(key, { value: 0, items: [...(live(key)?.items ?? []), value].slice(-max), expiresAt: Date.now() + ttlMs })
    },
    list: (key: string) => [...(live(key)?.items ?? [])],
    publish(channel: string, message: string) {
      // Delivered after the publisher's turn, as a network store would.
      for (const listener of channels.get(channel) ?? []) queueMicrotask(() => listener.message(message))
    },
  }
  return {
    increment: async (key, delta, ttlMs) => now.increment(key, delta, ttlMs),
    claim: async (key, ttlMs) => now.claim(key, ttlMs),
    release: async (key) => now.release(key),
    get: async (key) => now.get(key),
    set: async (key, text, ttlMs) => now.set(key, text, ttlMs),
    hold: async (key, text, ttlMs) => now.hold(key, text, ttlMs),
    lease: async (key, owner, ttlMs) => now.lease(key, owner, ttlMs),
    push: async (key, value, max, ttlMs) => now.push(key, value, max, ttlMs),
    list: async (key) => now.list(key),
    publish: async (channel, message) => now.publish(channel, message),
    batch: (operations) => inOrder(operations, (operation) => runOperation(now, operation)),
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
