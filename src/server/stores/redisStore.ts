import { callHook, thrownText } from '../partnerHooks.js'
import { BATCH, sha1Of } from './redisScript.js'
import type { ProxyStore, StoreListener, StoreOperation } from './store.js'

/**
 * What `redisStore` needs of a Redis client, as node-redis (`redis` 4 and later) has it: `eval`
 * (and `evalSha`), `publish`, and `duplicate` for the connection that subscribes (a subscribing connection can do
 * nothing else). With another client, pass an object whose methods call that client's.
 */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
  /** Where the client has it, the script is sent by its SHA-1 instead of its text (`eval` again when Redis answers NOSCRIPT). */
  evalSha?(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
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

/**
 * A store on Redis, shared by every instance of the proxy: pass a connected client you create
 * (`createClient({ url }).connect()` from the `redis` package). Keys start with `prefix`. The
 * store listens for the client's errors, so a lost Redis never ends the process: calls answer
 * 503 until the client reconnects.
 */
export function redisStore(client: RedisEvalClient, { prefix = 'tools-proxy:', onError }: RedisStoreOptions = {}): ProxyStore {
  let lastReported = ''
  const reportError = (error: unknown) => {
    const message = `[tools proxy] Redis: ${error instanceof Error ? error.message || error.name : thrownText(error)}`
    // A reconnecting client repeats its error on every try: say it once until it changes.
    if (message !== lastReported) callHook(onError ?? console.error, [(lastReported = message)], (text) => console.error(`[tools proxy] onError failed: ${text}`))
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
  const ttl = (ms: number) => String(Math.max(1, Math.ceil(ms)))
  /** An operation's four slots in ARGV (see BATCH). */
  const slots = (operation: StoreOperation, condition: number): string[] => {
    const head = [operation.op, String(condition)]
    switch (operation.op) {
      case 'increment':
        return [...head, String(Math.trunc(operation.delta)), ttl(operation.ttlMs)]
      case 'claim':
        return [...head, ttl(operation.ttlMs), '']
      case 'release':
      case 'get':
      case 'list':
        return [...head, '', '']
      case 'push':
        return [...head, operation.value, `${Math.max(1, Math.trunc(operation.max))} ${ttl(operation.ttlMs)}`]
      case 'set':
      case 'hold':
        return [...head, operation.value, ttl(operation.ttlMs)]
      case 'lease':
        return [...head, operation.owner, ttl(operation.ttlMs)]
      case 'publish':
        return [...head, prefix + operation.channel, operation.message]
    }
  }
  /** An answer of the script as the operation's method answers. */
  const answerOf = (operation: StoreOperation, answer: unknown): unknown => {
    if (answer === null || answer === undefined) return undefined // skipped, or a key not found
    if (operation.op === 'increment') return Number(answer)
    if (operation.op === 'claim' || operation.op === 'lease') return Number(answer) === 1
    if (operation.op === 'get' || operation.op === 'hold') return String(answer)
    if (operation.op === 'list') return (answer as unknown[]).map(String)
    return undefined
  }
  let sha1: Promise<string> | undefined
  const runBatch = async (options: { keys: string[]; arguments: string[] }) => {
    if (!client.evalSha) return client.eval(BATCH, options)
    try {
      return await client.evalSha(await (sha1 ??= sha1Of(BATCH)), options)
    } catch (error) {
      // Redis does not have it (restarted, or flushed): the text, which it keeps for next time.
      if (!/NOSCRIPT/.test(String(error))) throw error
      return client.eval(BATCH, options)
    }
  }
  const batch = async (operations: readonly StoreOperation[]): Promise<unknown[]> => {
    const keys: string[] = []
    const args: string[] = []
    for (const operation of operations) {
      if (operation.op !== 'publish') keys.push(prefix + operation.key)
      // Lua counts from 1.
      args.push(...slots(operation, operation.if !== undefined ? operation.if + 1 : operation.unless !== undefined ? -(operation.unless + 1) : 0))
    }
    const answers = (await runBatch({ keys, arguments: args })) as unknown[]
    return operations.map((operation, index) => answerOf(operation, answers[index]))
  }
  const one = async (operation: StoreOperation) => (await batch([operation]))[0]
  return {
    increment: async (key, delta, ttlMs) => (await one({ op: 'increment', key, delta, ttlMs })) as number,
    claim: async (key, ttlMs) => (await one({ op: 'claim', key, ttlMs })) as boolean,
    release: async (key) => void (await one({ op: 'release', key })),
    get: async (key) => (await one({ op: 'get', key })) as string | undefined,
    set: async (key, value, ttlMs) => void (await one({ op: 'set', key, value, ttlMs })),
    hold: async (key, value, ttlMs) => (await one({ op: 'hold', key, value, ttlMs })) as string,
    lease: async (key, owner, ttlMs) => (await one({ op: 'lease', key, owner, ttlMs })) as boolean,
    push: async (key, value, max, ttlMs) => void (await one({ op: 'push', key, value, max, ttlMs })),
    list: async (key) => (await one({ op: 'list', key })) as string[],
    publish: async (channel, message) => {
      await client.publish(prefix + channel, message)
    },
    batch,
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
