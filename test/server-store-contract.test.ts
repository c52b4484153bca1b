// @vitest-environment node
// The store contract (test/support/storeContract.ts) on every store here: memoryStore, redisStore
// on a redis-server of its own, and redisStore on a 3-master Redis Cluster of its own.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { memoryStore, redisStore } from '../src/server/index.js'
import { guardStore, StoreUnavailable } from '../src/server/stores/store.js'
import { SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'
import { startRedisCluster } from './support/redisCluster.js'
import { describeStoreContract } from './support/storeContract.js'

let redis: Awaited<ReturnType<typeof startRedis>>
let cluster: Awaited<ReturnType<typeof startRedisCluster>>
beforeAll(async () => {
  ;[redis, cluster] = await Promise.all([startRedis(), startRedisCluster()])
}, 90_000)
afterAll(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()])
})

let run = 0
const quiet = { onError: () => {} }

describeStoreContract('memoryStore', {
  make: async () => memoryStore(),
  twoInstances: async () => {
    // Two instances in one process share one memoryStore (its promises hold within the process).
    const store = memoryStore()
    return [store, store]
  },
})

describeStoreContract('redisStore on one Redis', {
  make: async () => redisStore(await redis.connect(), { prefix: `contract-${++run}:`, ...quiet }),
  twoInstances: async () => {
    const prefix = `contract-${++run}:`
    return [redisStore(await redis.connect(), { prefix, ...quiet }), redisStore(await redis.connect(), { prefix, ...quiet })]
  },
  failed: async () => {
    const client = await redis.connect()
    await client.quit()
    return redisStore(client, { prefix: 'contract-gone:', ...quiet })
  },
})

describeStoreContract('redisStore on a 3-master Redis Cluster', {
  make: async () => redisStore(await cluster.connect(), { prefix: `contract-${++run}:`, ...quiet }),
  twoInstances: async () => {
    const prefix = `contract-${++run}:`
    return [redisStore(await cluster.connect(), { prefix, ...quiet }), redisStore(await cluster.connect(), { prefix, ...quiet })]
  },
  failed: async () => {
    const client = await cluster.connect()
    await client.close()
    return redisStore(client, { prefix: 'contract-gone:', ...quiet })
  },
})

describe('redisStore on a Redis Cluster whose slot moves and whose master restarts', () => {
  // Last in this file: it takes a master down, which the cluster refuses requests through (CLUSTERDOWN).
  it('follows the slot; while the master is down answers 503, never crashes; then serves again, its subscription back and missed() told', async () => {
    const client = await cluster.connect({ reconnect: true })
    const store = redisStore(client, { prefix: `contract-${++run}:`, ...quiet })
    const heard: string[] = []
    let missed = 0
    const stop = await store.subscribe('jobs:{j:1}', { message: (message) => heard.push(message), missed: () => missed++ })
    await store.set('status:{j:1}', 'kept', 60_000)
    // A resharding moves the job's slot (its keys with it): the client follows MOVED, the channel too.
    await cluster.moveSlotOf('{j:1}')
    expect(await store.get('status:{j:1}')).toBe('kept')
    await vi.waitFor(async () => {
      await store.batch!([{ op: 'publish', channel: 'jobs:{j:1}', message: 'after the move' }])
      expect(heard).toContain('after the move')
    }, { timeout: 20_000, interval: 200 })
    // Its master crashes: the proxy answers 503 store_unavailable, and the process goes on.
    const port = await cluster.portOf('{j:1}')
    await cluster.kill(port)
    const proxy = testProxy(async () => Response.json({ value: 1 }), { store })
    const call = await proxy.handle(new Request(`${SITE}/api/tools/valuation/rent`, { method: 'POST', body: '{}', headers: { 'x-user': 'alice', 'content-type': 'application/json' } }))
    expect(call.status).toBe(503)
    await expect(guardStore(store, 1000).get('status:{j:1}')).rejects.toBeInstanceOf(StoreUnavailable)
    // Back (empty: no persistence here), it serves again; its subscribers are told they may have missed news, and hear what follows.
    await cluster.revive(port)
    await vi.waitFor(async () => expect(await store.get('status:{j:1}')).toBeUndefined(), { timeout: 30_000, interval: 200 })
    await vi.waitFor(() => expect(missed).toBeGreaterThan(0), { timeout: 30_000 })
    await vi.waitFor(async () => {
      await store.publish('jobs:{j:1}', 'after the restart')
      expect(heard).toContain('after the restart')
    }, { timeout: 30_000, interval: 200 })
    await stop()
  }, 120_000)
})
