// @vitest-environment node
// The store contract (test/support/storeContract.ts) on every store here: memoryStore, redisStore
// on a redis-server of its own, and redisStore on a 3-master Redis Cluster of its own.
import { afterAll, beforeAll } from 'vitest'
import { memoryStore, redisStore } from '../src/server/index.js'
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
