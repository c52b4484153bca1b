import type { ProxyStore, StoreListener } from './store.js'

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
  const channels = new Map<string, { listeners: Set<StoreListener>; subscribed: Promise<unknown> }>()
  const connectSubscriber = () =>
    (subscriber ??= (async () => {
      const connection = client.duplicate()
      connection.on('error', reportError)
      let ready = false
      connection.on('ready', () => {
        // node-redis subscribes again by itself; what was published meanwhile is lost.
        if (ready) for (const { listeners } of channels.values()) for (const listener of listeners) listener.missed?.()
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
      let subscription = channels.get(channel)
      if (!subscription) {
        const listeners = new Set<StoreListener>()
        const subscribed = connection.subscribe(prefix + channel, (message) => {
          for (const each of listeners) each.message(message)
        })
        const made = { listeners, subscribed }
        channels.set(channel, (subscription = made))
        // A channel whose subscription failed is tried afresh next time, not left half made.
        subscribed.catch(() => channels.get(channel) === made && channels.delete(channel))
      }
      // Every listener waits for Redis to confirm: none is told "listening" before it is.
      await subscription.subscribed
      const { listeners } = subscription
      const entry: StoreListener = { message: (message) => listener.message(message), missed: () => listener.missed?.() }
      listeners.add(entry)
      return async () => {
        listeners.delete(entry)
        if (listeners.size > 0 || channels.get(channel) !== subscription) return
        channels.delete(channel)
        await connection.unsubscribe(prefix + channel)
      }
    },
  }
}
