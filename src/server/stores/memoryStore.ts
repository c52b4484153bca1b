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
  const { publish, subscribe } = memoryChannels()
  // Each operation answers at once: a batch runs whole before any other request's operations.
  const now = { ...operationsOn(memoryEntries(maxEntries)), publish }
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
    subscribe,
  }
}

/** `held`: written by `hold` (who a file was first issued to, a job's first end), dropped only after the rest. */
type Entry = { value: number; text?: string; items?: string[]; expiresAt: number; held?: boolean }

/** At most `maxEntries` entries, each until it expires: `put` writes one as the newest, `live` reads one not expired. */
function memoryEntries(maxEntries: number) {
  const entries = new Map<string, Entry>()
  let writes = 0
  const dropExpired = () => {
    const now = Date.now()
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key)
  }
  return {
    /** Writes an entry as the newest; past the limit, drops what expired, then the oldest: held entries last. */
    put(key: string, entry: Entry) {
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
    },
    live(key: string) {
      const entry = entries.get(key)
      if (entry && entry.expiresAt <= Date.now()) {
        entries.delete(key)
        return undefined
      }
      return entry
    },
    delete: (key: string) => void entries.delete(key),
    /** Drops expired entries now and then, so a long-lived process does not keep every user forever. */
    sweep() {
      if (++writes % 1000 === 0) dropExpired()
    },
  }
}

/** The store's operations (all but publish and subscribe) on `entries`, each answering at once. */
function operationsOn({ put, live, sweep, delete: remove }: ReturnType<typeof memoryEntries>) {
  const until = (ttlMs: number) => Date.now() + ttlMs
  return {
    increment(key: string, delta: number, ttlMs: number) {
      sweep()
      const entry = live(key)
      if (!entry) {
        if (delta <= 0) return 0
        put(key, { value: delta, expiresAt: until(ttlMs) })
        return delta
      }
      entry.value += delta
      return entry.value
    },
    claim(key: string, ttlMs: number) {
      sweep()
      if (live(key)) return false
      put(key, { value: 1, expiresAt: until(ttlMs) })
      return true
    },
    release: remove,
    get: (key: string) => live(key)?.text,
    set(key: string, text: string, ttlMs: number) {
      sweep()
      put(key, { value: 0, text, expiresAt: until(ttlMs) })
    },
    hold(key: string, text: string, ttlMs: number) {
      sweep()
      const held = live(key)?.text
      if (held !== undefined && held !== text) return held
      // Held already by the same value: renewed (a file's owner keeps it as long as they use it).
      put(key, { value: 0, text, expiresAt: until(ttlMs), held: true })
      return text
    },
    lease(key: string, owner: string, ttlMs: number) {
      sweep()
      const held = live(key)?.text
      if (held !== undefined && held !== owner) return false
      put(key, { value: 0, text: owner, expiresAt: until(ttlMs) })
      return true
    },
    push(key: string, value: string, max: number, ttlMs: number) {
      sweep()
      put(key, { value: 0, items: [...(live(key)?.items ?? []), value].slice(-max), expiresAt: until(ttlMs) })
    },
    list: (key: string) => [...(live(key)?.items ?? [])],
  }
}

/** Channels within the process: `publish` delivers after the publisher's turn, as a network store would. */
function memoryChannels() {
  const channels = new Map<string, Set<StoreListener>>()
  return {
    publish(channel: string, message: string) {
      for (const listener of channels.get(channel) ?? []) queueMicrotask(() => listener.message(message))
    },
    async subscribe(channel: string, listener: StoreListener): Promise<() => Promise<void>> {
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
