// @vitest-environment node
// The store contract (test/support/storeContract.ts) on every store here: memoryStore, redisStore
// on a redis-server of its own, and redisStore on a 3-master Redis Cluster of its own.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { memoryStore, redisStore } from '../src/server/index.js'
import { exampleInput } from '../src/mock/index.js'
import { keys, storeIdOf } from '../src/server/keys.js'
import { guardStore, hashTagOf, StoreUnavailable } from '../src/server/stores/store.js'
import { LONG_WINDOW, SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'
import { startRedisCluster } from './support/redisCluster.js'
import { describeStoreContract } from './support/storeContract.js'
import { reader } from './support/eventReader.js'
import { webhookKey, webhookSignature } from '../src/client/standardWebhooks.js'

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
/** A webhook about a job, signed as the service signs them, taken by `proxy`. */
async function signedWebhook(proxy: ReturnType<typeof testProxy>, payload: unknown) {
  const [body, id, timestamp] = [JSON.stringify(payload), crypto.randomUUID(), Math.floor(Date.now() / 1000)]
  const signature = await webhookSignature(await webhookKey(WEBHOOK_SECRET), id, timestamp, body)
  const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature }
  return proxy.handle(new Request(`${SITE}/api/tools/webhooks`, { method: 'POST', body, headers }))
}

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

describe('redisStore on a 3-master Redis Cluster: where a person’s keys go', () => {
  /** How many of `users`' spend counters each master holds, once each made one call through the proxy. */
  async function countersByMaster(users: readonly string[]) {
    const prefix = `spread-${++run}:`
    const proxy = testProxy(async () => Response.json({ value: 1 }), { store: redisStore(await cluster.connect(), { prefix, ...quiet }), limits: { calls: 5, windowMs: LONG_WINDOW } })
    for (const user of users) {
      const answer = await proxy.handle(new Request(`${SITE}/api/tools/valuation/rent`, { method: 'POST', body: JSON.stringify(exampleInput('valuation/rent')), headers: { 'x-user': user, 'content-type': 'application/json' } }))
      expect(answer.status).toBe(200)
    }
    return Promise.all(cluster.ports.map(async (port) => (await cluster.keysOn(port, `${prefix}calls:*`)).length))
  }

  it('spreads 60 ids that start with "}" over all three masters, as evenly as 60 plain ids; no id lands on another’s', async () => {
    const steered = await countersByMaster(Array.from({ length: 60 }, (_, index) => `}${index}`))
    const plain = await countersByMaster(Array.from({ length: 60 }, (_, index) => `person-${index}@example.com`))
    expect(steered.reduce((sum, count) => sum + count)).toBe(60)
    expect(plain.reduce((sum, count) => sum + count)).toBe(60)
    // 20 each on average; a master with fewer than 12 of 60 would be a hot spot on another.
    for (const count of [...steered, ...plain]) expect(count).toBeGreaterThanOrEqual(12)
    // `alice}x` and `alice}` name their own places, not alice's.
    const tags = ['alice', 'alice}x', 'alice}', 'alice}:5'].map((user) => hashTagOf(keys.calls(storeIdOf(user), 1)))
    expect(new Set(tags).size).toBe(4)
  }, 60_000)
})

describe('redisStore on a Redis Cluster whose slot moves and whose master restarts', () => {
  it('a page’s stream hears its job’s news after the job’s slot moves to another master, and what came during the move', async () => {
    const prefix = `contract-${++run}:`
    let jobs = 0
    const service: typeof fetch = async (input, init) =>
      init?.method === 'POST' ? Response.json({ jobId: `job_moving_${++jobs}`, status: 'pending' }, { status: 202 }) : Response.json({ status: 'processing' })
    const options = { webhooks: { secret: WEBHOOK_SECRET } }
    const [a, b] = [testProxy(service, { store: redisStore(await cluster.connect(), { prefix, ...quiet }), ...options }), testProxy(service, { store: redisStore(await cluster.connect(), { prefix, ...quiet }), ...options })]
    const headers = { 'x-user': 'alice', 'content-type': 'application/json' }
    const created = await a.handle(new Request(`${SITE}/api/tools/valuation/report`, { method: 'POST', body: '{}', headers }))
    const { jobId: handle } = (await created.json()) as { jobId: string }
    const page = new AbortController()
    const request = new Request(`${SITE}/api/tools/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`, { headers, signal: page.signal })
    const stream = reader(await b.handle(request))
    await stream.created()
    const hook = (status: string) => signedWebhook(a, { data: { jobId: `job_moving_${jobs}`, status, progress: status.length } })
    try {
      // The job's keys and channel move; news sent as the slot changes hands may reach no subscriber.
      const moving = cluster.moveSlotOf(`{j:job_moving_${jobs}}`)
      expect((await hook('processing')).status).toBe(204)
      await moving
      expect(await stream.next()).toMatchObject({ body: { status: 'processing' } })
      // After the move: heard on the slot's new master.
      expect((await hook('completed')).status).toBe(204)
      expect(await stream.next()).toMatchObject({ body: { status: 'completed' } })
    } finally {
      page.abort()
    }
  }, 60_000)

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
    // What the new master published before the channel was subscribed there is lost: its listeners are told.
    await vi.waitFor(() => expect(missed).toBeGreaterThan(0), { timeout: 20_000 })
    await vi.waitFor(async () => {
      await store.batch!([{ op: 'publish', channel: 'jobs:{j:1}', message: 'after the move' }])
      expect(heard).toContain('after the move')
    }, { timeout: 20_000, interval: 200 })
    const missedBefore = missed
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
    await vi.waitFor(() => expect(missed).toBeGreaterThan(missedBefore), { timeout: 30_000 })
    await vi.waitFor(async () => {
      await store.publish('jobs:{j:1}', 'after the restart')
      expect(heard).toContain('after the restart')
    }, { timeout: 30_000, interval: 200 })
    await stop()
  }, 120_000)
})
