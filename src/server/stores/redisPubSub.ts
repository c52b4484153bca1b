// redisStore's subscriptions: on one Redis, a connection of their own; on a Redis Cluster, each
// channel on the shard its hash tag names (sharded pub/sub, Redis 7).
import type { ProxyStore, StoreListener } from './store.js'

/** Where redisStore's channels are listened to. */
export interface ChannelConnection {
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>
  unsubscribe(channel: string): Promise<unknown>
  /** Ends what the connection opened for itself (a connection, retries): nothing is listened to after. */
  close(): Promise<unknown>
}

/** Opens the connection, given what to call when messages may have been missed (it came back). */
export type OpenChannels = (missed: () => void) => Promise<ChannelConnection>

/** A node of a cluster, as node-redis names it in its `node-*` events. */
export interface ClusterNode {
  host: string
  port: number
}

/**
 * `subscribe` as ProxyStore has it over `open`'s connection, opened on the first subscription:
 * every listener of a channel shares one Redis subscription; `prefix` goes before each channel.
 */
export function redisSubscriptions(open: OpenChannels, prefix: string): { subscribe: ProxyStore['subscribe']; close: () => Promise<void> } {
  const channels = new Map<string, { listeners: Set<StoreListener>; subscribed: Promise<unknown> }>()
  const missedAll = () => {
    for (const { listeners } of channels.values()) for (const listener of listeners) listener.missed?.()
  }
  let connection: Promise<ChannelConnection> | undefined
  const connect = () =>
    (connection ??= open(missedAll).catch((error: unknown) => {
      connection = undefined
      throw error
    }))
  const subscribe = async (channel: string, listener: StoreListener): Promise<() => Promise<void>> => {
    const opened = await connect()
    let subscription = channels.get(channel)
    if (!subscription) {
      const listeners = new Set<StoreListener>()
      const subscribed = opened.subscribe(prefix + channel, (message) => {
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
      await opened.unsubscribe(prefix + channel)
    }
  }
  const close = async () => {
    const opened = connection
    connection = undefined
    channels.clear()
    if (opened) await (await opened.catch(() => undefined))?.close()
  }
  return { subscribe, close }
}

/** One Redis: a duplicate of the client, which node-redis subscribes again by itself when it comes back. */
export function classicChannels(
  duplicate: () => {
    connect(): Promise<unknown>
    subscribe(channel: string, listener: (message: string) => void): Promise<unknown>
    unsubscribe(channel: string): Promise<unknown>
    on(event: 'error' | 'ready', listener: (error?: unknown) => void): unknown
    destroy?(): unknown
  },
  reportError: (error: unknown) => void,
): OpenChannels {
  return async (missed) => {
    const connection = duplicate()
    connection.on('error', reportError)
    let ready = false
    connection.on('ready', () => {
      // What was published while it was away is lost.
      if (ready) missed()
      ready = true
    })
    await connection.connect()
    return {
      subscribe: (channel, listener) => connection.subscribe(channel, listener),
      unsubscribe: (channel) => connection.unsubscribe(channel),
      // Its own connection: ended at once, with its reconnection (a shutdown waits for nothing).
      close: async () => connection.destroy?.(),
    }
  }
}

/** A master of a cluster as node-redis's `masters` lists it: its sharded subscriptions' connection, once it has one. */
export interface ClusterMaster {
  pubSub?: { client: { on(event: 'sharded-channel-moved', listener: (channel: string) => void): unknown } }
}

/**
 * A Redis Cluster: node-redis's cluster client subscribes each channel on its slot's master and
 * follows a slot that moves, with a gap: what the slot's new master publishes before the channel
 * is subscribed there reaches nobody. So a moved channel (as a master's connection says, or
 * node-redis could not follow it) is subscribed again here, and once it is, its listeners are told
 * they may have missed messages; so is every listener when a node comes back after a loss.
 */
export function shardedChannels(cluster: {
  sSubscribe(channel: string, listener: (message: string) => void): Promise<unknown>
  sUnsubscribe(channel: string): Promise<unknown>
  on?(event: 'node-ready' | 'node-reconnecting' | 'node-disconnect', listener: (node: ClusterNode) => void): unknown
  on?(event: 'sharded-channel-moved-error', listener: (error: unknown, channel: string) => void): unknown
  readonly masters?: readonly ClusterMaster[]
}): OpenChannels {
  return async (missed) => {
    const lost = new Set<string>()
    const address = ({ host, port }: ClusterNode) => `${host}:${port}`
    cluster.on?.('node-reconnecting', (node) => lost.add(address(node)))
    cluster.on?.('node-disconnect', (node) => lost.add(address(node)))
    cluster.on?.('node-ready', (node) => lost.delete(address(node)) && missed())
    const listening = new Map<string, (message: string) => void>()
    const retries = new Set<ReturnType<typeof setTimeout>>()
    const again = (channel: string, waitMs: number) => {
      const timer = setTimeout(() => {
        retries.delete(timer)
        const listener = listening.get(channel)
        // The same listener node-redis may have moved already: subscribed once, on the slot's master now.
        if (listener) subscribe(channel, listener).then(missed, () => again(channel, Math.min(2 * waitMs, 2000)))
      }, waitMs)
      // A retry never keeps the process alive.
      ;(timer as { unref?: () => void }).unref?.()
      retries.add(timer)
    }
    cluster.on?.('sharded-channel-moved-error', (_error, channel) => again(channel, 100))
    // Each master's subscribing connection, told when one of its channels moved away (node-redis makes them as needed).
    const heard = new WeakSet<object>()
    const hearMoves = () => {
      for (const { pubSub } of cluster.masters ?? []) {
        if (!pubSub || heard.has(pubSub.client)) continue
        heard.add(pubSub.client)
        pubSub.client.on('sharded-channel-moved', (channel) => listening.has(channel) && again(channel, 100))
      }
    }
    const subscribe = async (channel: string, listener: (message: string) => void) => {
      const subscribed = await cluster.sSubscribe(channel, listener)
      hearMoves()
      return subscribed
    }
    return {
      subscribe: (channel, listener) => (listening.set(channel, listener), subscribe(channel, listener)),
      unsubscribe: (channel) => (listening.delete(channel), cluster.sUnsubscribe(channel)),
      // The cluster client is the application's (it closes it): only this store's channels and retries end.
      close: async () => {
        for (const timer of retries) clearTimeout(timer)
        retries.clear()
        const channels = [...listening.keys()]
        listening.clear()
        await Promise.allSettled(channels.map((channel) => cluster.sUnsubscribe(channel)))
      },
    }
  }
}
