// @vitest-environment node
// What the proxy keeps per user and per item: distinct user ids never share a spend cap, even on a
// real redis-server (which stores UTF-8, where every lone surrogate is U+FFFD); memoryStore keeps
// at most maxEntries, the oldest going first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStore, redisStore, type ProxyStore } from '../src/server/index.js'
import { jobChannelOf, keys, userJobsChannel } from '../src/server/keys.js'
import { createSigner } from '../src/server/signing.js'
import { hashTagOf } from '../src/server/stores/store.js'
import { layoutBreaches } from './support/oneTagPerBatch.js'
import { LONG_WINDOW, SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'

describe('store ids', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  beforeAll(async () => {
    redis = await startRedis()
  }, 30_000)
  afterAll(() => redis?.stop())

  it('keep users apart whose ids differ only in a lone surrogate, on Redis and in memory', async () => {
    const users: Record<string, string> = { high: 'u\uD800', low: 'u\uDC00', replaced: 'u\uFFFD', escaped: 'u\\ud800' }
    const stores: ProxyStore[] = [redisStore(await redis.connect(), { prefix: 'keys-test:', onError: () => {} }), memoryStore()]
    for (const store of stores) {
      let calls = 0
      const proxy = testProxy(async () => (calls++, Response.json({ value: 1 })), {
        store,
        limits: { calls: 1, windowMs: LONG_WINDOW },
        authorize: (request) => ({ user: users[request.headers.get('x-who')!]!, tools: ['valuation/express'] }),
      })
      const call = (who: string) =>
        proxy.handle(new Request(`${SITE}/api/tools/valuation/express`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json', 'x-who': who } }))
      // One call each under a cap of one: four users, four calls.
      for (const who of Object.keys(users)) expect((await call(who)).status, who).toBe(200)
      expect(calls).toBe(4)
      // And each is now at their cap.
      for (const who of Object.keys(users)) expect((await call(who)).status, who).toBe(402)
    }
  })
})

describe('signatures', () => {
  it('are the same made with Node’s crypto (at once) as with Web Crypto (where Node’s is missing)', async () => {
    const secret = 'a-test-secret-of-at-least-thirty-two-characters'
    const node = createSigner(secret)
    const web = createSigner(secret, null)
    const fields = ['job', 'u_1', 'pdf/create', 'job_\u2028"1"']
    const signature = await node.sign(fields)
    expect(await web.sign(fields)).toBe(signature)
    for (const signer of [node, web]) {
      expect(await signer.verify(fields, signature)).toBe(true)
      expect(await signer.verify(['job', 'u_2', 'pdf/create', fields[3]!], signature)).toBe(false)
      expect(await signer.verify(fields, signature.slice(0, -2))).toBe(false)
      expect(await signer.verify(fields, `${signature}AA`)).toBe(false)
    }
    expect(await createSigner('another-secret-of-at-least-thirty-two-chars').verify(fields, signature)).toBe(false)
  })
})

describe('memoryStore', () => {
  it('keeps at most maxEntries, the oldest written going first', async () => {
    const store = memoryStore({ maxEntries: 1000 })
    for (let i = 0; i < 5000; i++) await store.set(`{item:${i}}`, 'x', 60_000)
    expect(await store.get('{item:0}')).toBeUndefined()
    expect(await store.get('{item:3999}')).toBeUndefined()
    expect(await store.get('{item:4999}')).toBe('x')
    let kept = 0
    for (let i = 0; i < 5000; i++) if ((await store.get(`{item:${i}}`)) !== undefined) kept++
    expect(kept).toBeGreaterThan(800)
    expect(kept).toBeLessThanOrEqual(1000)
    // A key written again is the newest: 800 later writes leave it, as they leave the 4900s behind it.
    await store.set('{item:4100}', 'again', 60_000)
    for (let i = 0; i < 800; i++) await store.set(`{more:${i}}`, 'x', 60_000)
    expect(await store.get('{item:4100}')).toBe('again')
    expect(await store.get('{item:4101}')).toBeUndefined()
    expect(() => memoryStore({ maxEntries: 0 })).toThrow(TypeError)
  })
})

describe('the key layout (one hash tag per key and per batch)', () => {
  it('reads a tag as Redis Cluster does', () => {
    expect(hashTagOf('status:{j:job_1}:/pdf/create')).toBe('j:job_1')
    expect(hashTagOf('tools-proxy:calls:{u:a}b}:7')).toBe('u:a')
    expect(hashTagOf('{}x{y}')).toBe('{}x{y}')
    expect(hashTagOf('plain')).toBe('plain')
  })

  it('every key of a person, of a job, of a file shares its tag', () => {
    const job = { toolPath: '/pdf/create', jobId: 'job_}1' }
    const tags = (...keys: string[]) => new Set(keys.map(hashTagOf))
    expect(tags(keys.rate('a', 1), keys.streamRate('a', 1), keys.calls('a', 1), keys.counted('a', 'k'), keys.recentJobs('a', 'p'), userJobsChannel('a')).size).toBe(1)
    expect(tags(keys.status(job), keys.ended(job), keys.reading(job), keys.lease(job), keys.written(job.jobId), keys.job(job.jobId), keys.early(job.jobId), jobChannelOf(job)).size).toBe(1)
    expect(tags(keys.calls('a', 1), keys.calls('b', 1), keys.status(job), keys.owner('/f'), keys.webhook('w')).size).toBe(5)
  })

  it('a batch that touches two tags is refused in the tests (and fails the test that sent it)', async () => {
    const store = memoryStore()
    await expect(store.batch!([{ op: 'get', key: '{a}x' }, { op: 'get', key: '{b}y' }])).rejects.toThrow(/2 hash tags/)
    await expect(store.get('untagged')).rejects.toThrow(/no hash tag/)
    expect(layoutBreaches.splice(0)).toHaveLength(2)
    expect(await store.batch!([{ op: 'get', key: '{a}x' }, { op: 'publish', channel: 'news:{a}', message: '1' }])).toEqual([undefined, undefined])
  })
})
