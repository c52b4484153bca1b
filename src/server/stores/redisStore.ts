import { callHook, thrownText } from '../partnerHooks.js'
import { classicChannels, redisSubscriptions, shardedChannels, type ClusterMaster, type ClusterNode } from './redisPubSub.js'
import { answerOf, argumentsOf, BATCH, sha1Of } from './redisScript.js'
import type { ProxyStore, StoreOperation } from './store.js'

/** A script run, as node-redis's `eval` and `evalSha` take it. */
type ScriptCall = (script: string, options: { keys: string[]; arguments: string[] }) => Promise<unknown>

/**
 * What `redisStore` needs of a Redis client, as node-redis (`redis` 4 and later) has it: `eval`
 * (and `evalSha`), `publish`, and `duplicate` for the connection that subscribes (a subscribing connection can do
 * nothing else). With another client, pass an object whose methods call that client's.
 */
export interface RedisEvalClient {
  eval: ScriptCall
  /** Where the client has it, the script is sent by its SHA-1 instead of its text (`eval` again when Redis answers NOSCRIPT). */
  evalSha?: ScriptCall
  publish(channel: string, message: string): Promise<unknown>
  /** A new client like this one, not yet connected. */
  duplicate(): RedisSubscriberClient
  /** node-redis emits 'error' when the connection fails; with no listener, Node ends the process. */
  on?(event: 'error', listener: (error: unknown) => void): unknown
}

/**
 * What `redisStore` needs of a Redis Cluster client, as node-redis's `createCluster` has it: `eval`
 * (and `evalSha`), sent to the node serving the first key; sharded pub/sub (`sPublish`,
 * `sSubscribe`, `sUnsubscribe`: Redis 7 and later), each channel on its slot's master.
 */
export interface RedisClusterClient {
  eval: ScriptCall
  evalSha?: ScriptCall
  sPublish(channel: string, message: string): Promise<unknown>
  sSubscribe(channel: string, listener: (message: string) => void): Promise<unknown>
  sUnsubscribe(channel: string): Promise<unknown>
  /** node-redis's cluster events: errors (with no listener, Node ends the process), and its nodes' connections lost and ready again. */
  on?(event: 'error' | 'node-error', listener: (error: unknown) => void): unknown
  on?(event: 'node-ready' | 'node-reconnecting' | 'node-disconnect', listener: (node: ClusterNode) => void): unknown
  /** A channel whose slot moved and which node-redis could not subscribe again: redisStore does. */
  on?(event: 'sharded-channel-moved-error', listener: (error: unknown, channel: string) => void): unknown
  /** node-redis's masters: redisStore hears from their subscribing connections which channels moved, to read what a move may have lost. */
  readonly masters?: readonly ClusterMaster[]
}

/** The connection `redisStore` subscribes on: `client.duplicate()`. */
export interface RedisSubscriberClient {
  connect(): Promise<unknown>
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>
  /** 'error' as on the client; 'ready' each time the connection is (again) ready, when messages may have been missed. */
  on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown
  /** Ends the connection at once, its reconnection too (node-redis's `destroy`): `close()` calls it. */
  destroy?(): unknown
}

export interface RedisStoreOptions {
  /** Prepended to every key and channel, outside its hash tag (it never moves a key to another slot); no `{` in it. Default `tools-proxy:`. */
  prefix?: string
  /** Told of the client's connection errors (the store answers 503 meanwhile). Default `console.error`. */
  onError?: (message: string) => void
}

/** A node-redis cluster client (`createCluster`), or another with sharded pub/sub and no `duplicate`. */
const isCluster = (client: RedisEvalClient | RedisClusterClient): client is RedisClusterClient =>
  'sSubscribe' in client && typeof client.sSubscribe === 'function' && ('masters' in client || !('duplicate' in client))

/**
 * A store on Redis, shared by every instance of the proxy: pass a connected client you create
 * (`createClient({ url }).connect()` from the `redis` package), or a Redis Cluster's
 * (`createCluster({ rootNodes }).connect()`). Keys start with `prefix`. The store listens for the
 * client's errors, so a lost Redis never ends the process: calls answer 503 until the client reconnects.
 */
export function redisStore(client: RedisEvalClient | RedisClusterClient, { prefix = 'tools-proxy:', onError }: RedisStoreOptions = {}): ProxyStore {
  if (prefix.includes('{')) throw new TypeError('redisStore: `prefix` must not hold `{` (it would be read as a hash tag).')
  const reportError = errorReporter(onError)
  const cluster = isCluster(client)
  client.on?.('error', reportError)
  if (cluster) client.on?.('node-error', reportError)
  const { subscribe, close } = redisSubscriptions(cluster ? shardedChannels(client) : classicChannels(() => client.duplicate(), reportError), prefix)
  const batch = redisBatch(client, prefix, cluster)
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
      await (cluster ? client.sPublish(prefix + channel, message) : client.publish(prefix + channel, message))
    },
    batch,
    subscribe,
    close,
  }
}

/** Reports the client's errors through `onError`: a reconnecting client repeats its error on every try, said once until it changes. */
function errorReporter(onError: ((message: string) => void) | undefined) {
  let lastReported = ''
  return (error: unknown) => {
    const message = `[tools proxy] Redis: ${error instanceof Error ? error.message || error.name : thrownText(error)}`
    if (message !== lastReported) callHook(onError ?? console.error, [(lastReported = message)], (text) => console.error(`[tools proxy] onError failed: ${text}`))
  }
}

/** A batch as one run of the script, by its SHA-1 where the client can; on a cluster, on the node its keys' one tag names. */
function redisBatch(client: Pick<RedisEvalClient, 'eval' | 'evalSha'>, prefix: string, sharded: boolean) {
  let sha1: Promise<string> | undefined
  const run = async (options: { keys: string[]; arguments: string[] }) => {
    if (!client.evalSha) return client.eval(BATCH, options)
    try {
      return await client.evalSha(await (sha1 ??= sha1Of(BATCH)), options)
    } catch (error) {
      // Redis (on a cluster, this node) does not have it (restarted, or flushed): the text, which it keeps for next time.
      if (!/NOSCRIPT/.test(String(error))) throw error
      return client.eval(BATCH, options)
    }
  }
  return async (operations: readonly StoreOperation[]): Promise<unknown[]> => {
    const keys: string[] = []
    const args: string[] = []
    for (const operation of operations) {
      keys.push(prefix + (operation.op === 'publish' ? operation.channel : operation.key))
      // Lua counts from 1.
      const condition = operation.if !== undefined ? operation.if + 1 : operation.unless !== undefined ? -(operation.unless + 1) : 0
      args.push(...argumentsOf(operation, condition, sharded))
    }
    const answers = (await run({ keys, arguments: args })) as unknown[]
    return operations.map((operation, index) => answerOf(operation, answers[index]))
  }
}
