/**
 * Where the proxy keeps what several instances must share: the users' spend counters and request
 * rates, the Idempotency-Keys already counted, who each file was first issued to, the service's
 * URLs a job's request carried, a job's latest status and who watches it, and the webhooks seen.
 * Handles are signed and need no store. Every operation is atomic on its key, so instances
 * sharing one store count exactly; `publish`/`subscribe` carry job updates between them. The
 * proxy gives every operation a second: a store slower than that, or failing, answers 503
 * `store_unavailable` and nothing is sent to the service.
 */
export interface ProxyStore {
  /**
   * Adds `delta` to the counter at `key` and returns its new value. A counter this call creates
   * expires `ttlMs` later; a `delta` of 0 (a read) or less on a missing (expired) counter creates
   * nothing and returns 0.
   */
  increment(key: string, delta: number, ttlMs: number): Promise<number>
  /** Sets `key` for `ttlMs` unless it is set: true when this call set it. */
  claim(key: string, ttlMs: number): Promise<boolean>
  /** Removes `key`. */
  release(key: string): Promise<void>
  /** The text at `key`, if set. */
  get(key: string): Promise<string | undefined>
  /** Sets `key` to `value` for `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>
  /** Sets `key` to `value` for `ttlMs` unless it is set; returns the value it holds (the first writer's). */
  hold(key: string, value: string, ttlMs: number): Promise<string>
  /** Sets `key` to `owner` for `ttlMs` when it is unset or already `owner`'s (a renewal): true when `owner` holds it now. */
  lease(key: string, owner: string, ttlMs: number): Promise<boolean>
  /** Sends `message` to every subscriber of `channel`, in every instance sharing the store. */
  publish(channel: string, message: string): Promise<void>
  /**
   * Calls `listener.message` with every message published on `channel` from now on, and
   * `listener.missed` when messages may have been lost (the connection came back); resolves once
   * listening, with a function that stops.
   */
  subscribe(channel: string, listener: StoreListener): Promise<() => Promise<void>>
}

/** What a subscriber of a store channel is told. */
export interface StoreListener {
  message(message: string): void
  /** Messages may have been lost meanwhile (the store's connection dropped and came back): read what matters again. */
  missed?(): void
}

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
        if (delta <= 0) return 0
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

/**
 * What `redisStore` needs of a Redis client, as node-redis (`redis` 4 and later) has it: `eval`,
 * `publish`, and `duplicate` for the connection that subscribes (a subscribing connection can do
 * nothing else). With another client, pass an object whose methods call that client's.
 */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  publish(channel: string, message: string): Promise<unknown>
  /** A new client like this one, not yet connected. */
  duplicate(): RedisSubscriberClient
  /** node-redis emits 'error' when the connection fails; with no listener, Node ends the process. */
  on?(event: 'error', listener: (error: unknown) => void): unknown
}

/** The connection `redisStore` subscribes on: `client.duplicate()`. */
export interface RedisSubscriberClient {
  connect(): Promise<unknown>
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>
  /** 'error' as on the client; 'ready' each time the connection is (again) ready, when messages may have been missed. */
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown
}

export interface RedisStoreOptions {
  /** Prepended to every key. Default `tools-proxy:`. */
  prefix?: string
  /** Told of the client's connection errors (the store answers 503 meanwhile). Default `console.error`. */
  onError?: (message: string) => void
}

// Each script runs atomically on the Redis server: two instances never interleave inside one.
const INCREMENT = `
local exists = redis.call('EXISTS', KEYS[1])
local delta = tonumber(ARGV[1])
if exists == 0 and delta <= 0 then return 0 end
local value = redis.call('INCRBY', KEYS[1], delta)
if exists == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`
const CLAIM = `return redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) and 1 or 0`
const RELEASE = `return redis.call('DEL', KEYS[1])`
const GET = `return redis.call('GET', KEYS[1])`
const SET = `return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])`
const LEASE = `
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1`
const HOLD = `
local held = redis.call('GET', KEYS[1])
if held then return held end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`

/**
 * A store on Redis, shared by every instance of the proxy: pass a connected client you create
 * (`createClient({ url }).connect()` from the `redis` package). Keys start with `prefix`. The
 * store listens for the client's errors, so a lost Redis never ends the process: calls answer
 * 503 until the client reconnects.
 */
export function redisStore(client: RedisEvalClient, { prefix = 'tools-proxy:', onError }: RedisStoreOptions = {}): ProxyStore {
  let lastReported = ''
  const reportError = (error: unknown) => {
    const message = `[tools proxy] Redis: ${error instanceof Error ? error.message || error.name : String(error)}`
    // A reconnecting client repeats its error on every try: say it once until it changes.
    if (message !== lastReported) (onError ?? console.error)((lastReported = message))
  }
  client.on?.('error', reportError)
  /** The subscribing connection, opened on the first subscription; every listener of a channel shares one Redis subscription. */
  let subscriber: Promise<RedisSubscriberClient> | undefined
  const channels = new Map<string, Set<StoreListener>>()
  const connectSubscriber = () =>
    (subscriber ??= (async () => {
      const connection = client.duplicate()
      connection.on('error', reportError)
      let ready = false
      connection.on('ready', () => {
        // node-redis subscribes again by itself; what was published meanwhile is lost.
        if (ready) for (const listeners of channels.values()) for (const listener of listeners) listener.missed?.()
        ready = true
      })
      await connection.connect()
      return connection
    })().catch((error: unknown) => {
      subscriber = undefined
      throw error
    }))
  const run = (script: string, key: string, args: (string | number)[]) =>
    client.eval(script, { keys: [prefix + key], arguments: args.map(String) })
  const ttl = (ms: number) => Math.max(1, Math.ceil(ms))
  return {
    increment: async (key, delta, ttlMs) => Number(await run(INCREMENT, key, [Math.trunc(delta), ttl(ttlMs)])),
    claim: async (key, ttlMs) => Number(await run(CLAIM, key, [ttl(ttlMs)])) === 1,
    release: async (key) => {
      await run(RELEASE, key, [])
    },
    get: async (key) => {
      const value = await run(GET, key, [])
      return typeof value === 'string' ? value : undefined
    },
    set: async (key, value, ttlMs) => {
      await run(SET, key, [value, ttl(ttlMs)])
    },
    hold: async (key, value, ttlMs) => String(await run(HOLD, key, [value, ttl(ttlMs)])),
    lease: async (key, owner, ttlMs) => Number(await run(LEASE, key, [owner, ttl(ttlMs)])) === 1,
    publish: async (channel, message) => {
      await client.publish(prefix + channel, message)
    },
    subscribe: async (channel, listener) => {
      const connection = await connectSubscriber()
      let listeners = channels.get(channel)
      if (!listeners) {
        channels.set(channel, (listeners = new Set()))
        const current = listeners
        await connection.subscribe(prefix + channel, (message) => {
          for (const each of current) each.message(message)
        })
      }
      const entry: StoreListener = { message: (message) => listener.message(message), missed: () => listener.missed?.() }
      listeners.add(entry)
      return async () => {
        listeners.delete(entry)
        if (listeners.size > 0 || channels.get(channel) !== listeners) return
        channels.delete(channel)
        await connection.unsubscribe(prefix + channel)
      }
    },
  }
}

/** The store failed or was too slow: the proxy answers 503 and sends nothing on. */
export class StoreUnavailable extends Error {}

/** The store with a time limit on every operation; a failure of either kind throws StoreUnavailable. */
export function guardStore(store: ProxyStore, limitMs: number): ProxyStore {
  const guard =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      new Promise<R>((resolve, reject) => {
        const timer = setTimeout(() => reject(new StoreUnavailable(`no answer in ${limitMs} ms`)), limitMs)
        operation(...args).then(
          (value) => (clearTimeout(timer), resolve(value)),
          (error: unknown) => (clearTimeout(timer), reject(new StoreUnavailable(error instanceof Error ? error.message : String(error)))),
        )
      })
  return {
    increment: guard(store.increment.bind(store)),
    claim: guard(store.claim.bind(store)),
    release: guard(store.release.bind(store)),
    get: guard(store.get.bind(store)),
    set: guard(store.set.bind(store)),
    hold: guard(store.hold.bind(store)),
    lease: guard(store.lease.bind(store)),
    publish: guard(store.publish.bind(store)),
    subscribe: guard(store.subscribe.bind(store)),
  }
}
