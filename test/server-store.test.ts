// @vitest-environment node
// The proxy's stores keep the same promises: memoryStore in the process, redisStore on a real
// redis-server of its own.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { memoryStore, redisStore, type ProxyStore } from '../src/server/index.js'
import { guardStore, StoreUnavailable } from '../src/server/store.js'
import { startRedis } from './support/redis.js'

let redis: Awaited<ReturnType<typeof startRedis>>
let raw: Awaited<ReturnType<typeof redis.connect>>
beforeAll(async () => {
  redis = await startRedis()
  raw = await redis.connect()
}, 30_000)
afterAll(() => redis?.stop())

let run = 0
const stores: [string, () => { store: ProxyStore; prefix: string }][] = [
  ['memoryStore', () => ({ store: memoryStore(), prefix: '' })],
  [
    'redisStore',
    () => {
      const prefix = `store-test-${++run}:`
      return { store: redisStore(raw, { prefix, onError: () => {} }), prefix }
    },
  ],
]

describe.each(stores)('%s', (_name, make) => {
  it('keeps text for a while, and holds the first writer’s value', async () => {
    const { store } = make()
    expect(await store.get('status')).toBeUndefined()
    await store.set('status', '{"status":"pending"}', 60_000)
    expect(await store.get('status')).toBe('{"status":"pending"}')
    await store.set('status', '{"status":"done"}', 60_000)
    expect(await store.get('status')).toBe('{"status":"done"}')
    expect(await store.hold('owner', 'alice', 60_000)).toBe('alice')
    expect(await store.hold('owner', 'bob', 60_000)).toBe('alice')
  })

  it('counts up and down; a give-back or a read never creates a counter', async () => {
    const { store } = make()
    expect(await store.increment('calls:a', 1, 60_000)).toBe(1)
    expect(await store.increment('calls:a', 1, 60_000)).toBe(2)
    expect(await store.increment('calls:a', -1, 60_000)).toBe(1)
    expect(await store.increment('calls:b', -1, 60_000)).toBe(0)
    // A delta of 0 reads, creating nothing either.
    expect(await store.increment('calls:b', 0, 60_000)).toBe(0)
    expect(await store.increment('calls:b', -1, 60_000)).toBe(0)
    expect(await store.increment('calls:b', 1, 60_000)).toBe(1)
    expect(await store.increment('calls:b', 0, 60_000)).toBe(1)
  })

  it('claims a key once until it is released', async () => {
    const { store } = make()
    expect(await store.claim('seen:k', 60_000)).toBe(true)
    expect(await store.claim('seen:k', 60_000)).toBe(false)
    await store.release('seen:k')
    expect(await store.claim('seen:k', 60_000)).toBe(true)
  })

  it('leases a key to one owner at a time; the owner renews it', async () => {
    const { store } = make()
    expect(await store.lease('lease:job', 'instance-a', 60_000)).toBe(true)
    expect(await store.lease('lease:job', 'instance-b', 60_000)).toBe(false)
    expect(await store.lease('lease:job', 'instance-a', 60_000)).toBe(true)
    const racers = await Promise.all(['x', 'y', 'z'].map((owner) => store.lease('lease:other', owner, 60_000)))
    expect(racers.filter(Boolean)).toHaveLength(1)
  })

  it('publishes to every subscriber of a channel, until each stops', async () => {
    const { store } = make()
    const heard: string[][] = [[], []]
    const stops = await Promise.all(heard.map((into) => store.subscribe('jobs', { message: (message) => into.push(message) })))
    await store.publish('jobs', 'one')
    await store.publish('elsewhere', 'not for us')
    await vi.waitFor(() => expect(heard).toEqual([['one'], ['one']]))
    await stops[0]!()
    await store.publish('jobs', 'two')
    await vi.waitFor(() => expect(heard[1]).toEqual(['one', 'two']))
    expect(heard[0]).toEqual(['one'])
    await stops[1]!()
  })

  it('counts exactly under concurrent increments', async () => {
    const { store } = make()
    const counts = await Promise.all(Array.from({ length: 200 }, () => store.increment('calls:c', 1, 60_000)))
    expect(new Set(counts).size).toBe(200)
    expect(Math.max(...counts)).toBe(200)
  })
})

describe('expiry', () => {
  it('memoryStore forgets a counter and a claim when their time is up', async () => {
    vi.useFakeTimers()
    try {
      const store = memoryStore()
      await store.increment('calls:a', 1, 1000)
      await store.claim('seen:k', 1000)
      await vi.advanceTimersByTimeAsync(999)
      expect(await store.increment('calls:a', 1, 1000)).toBe(2)
      expect(await store.claim('seen:k', 1000)).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      expect(await store.increment('calls:a', 1, 1000)).toBe(1)
      expect(await store.claim('seen:k', 1000)).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it('redisStore sets the time to live when it creates a key, and leaves it after', async () => {
    const { store, prefix } = stores[1]![1]()
    await store.increment('calls:a', 1, 50_000)
    const first = await raw.pTTL(`${prefix}calls:a`)
    expect(first).toBeGreaterThan(40_000)
    expect(first).toBeLessThanOrEqual(50_000)
    await store.increment('calls:a', 1, 900_000)
    expect(await raw.pTTL(`${prefix}calls:a`)).toBeLessThanOrEqual(50_000)
    await store.claim('seen:k', 30_000)
    expect(await raw.pTTL(`${prefix}seen:k`)).toBeGreaterThan(20_000)
  })
})

describe('redisStore through a stall (a real redis-server, frozen)', () => {
  it('a subscription that timed out while Redis was frozen is not left behind: each message is heard once', async () => {
    const client = await redis.connect()
    const store = guardStore(redisStore(client, { prefix: 'stalled-subscribe:', onError: () => {} }), 1000)
    const heard: string[] = []
    const listener = { message: (message: string) => heard.push(message) }
    // The subscribing connection is open before the stall: only the channel's subscription waits.
    await (await store.subscribe('warm', listener))()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    redis.pause()
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const subscribing = store.subscribe('jobs', listener)
        const failed = expect(subscribing).rejects.toBeInstanceOf(StoreUnavailable)
        await vi.advanceTimersByTimeAsync(1000)
        await failed
      }
    } finally {
      redis.resume()
      vi.useRealTimers()
    }
    const stop = await store.subscribe('jobs', listener)
    await store.publish('jobs', 'one')
    await vi.waitFor(() => expect(heard).toContain('one'))
    await store.publish('jobs', 'two')
    await vi.waitFor(() => expect(heard).toContain('two'))
    expect(heard).toEqual(['one', 'two'])
    await stop()
  })
})
