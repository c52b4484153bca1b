// @vitest-environment node
// A file stays with the person it was first issued to: an echo of a guessed address is never
// signed for another, whether the store evicts (memoryStore) or its records expire (Redis), and
// the owner still gets their own file back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { memoryStore, redisStore, type ProxyStore } from '../src/server/index.js'
import { keys, legacyKeys } from '../src/server/keys.js'
import { SERVICE, SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'

const fileOf = (jobId: string) => `${SERVICE}/artifacts/${jobId}.pdf`
const signed = /^\/api\/tools\/artifacts\//

/** A service whose job answers name the job's own file and echo the request's `language` (where a guessed address goes). */
function echoingService() {
  const inputs = new Map<string, unknown>()
  let jobs = 0
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    if (request.method === 'POST') {
      const jobId = `job_${++jobs}`
      inputs.set(jobId, ((await request.json()) as { language?: unknown }).language ?? null)
      return Response.json({ jobId, status: 'pending', requestId: 'req_1' }, { status: 202 })
    }
    const jobId = new URL(request.url).pathname.split('/').pop()!
    return Response.json({ jobId, status: 'completed', url: fileOf(jobId), echo: inputs.get(jobId) })
  }
  return fetch
}

function proxyOn(store: ProxyStore, fetch = echoingService()) {
  const proxy = testProxy(fetch, { store })
  const send = (user: string, path: string, init: RequestInit = {}) =>
    proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': user, 'content-type': 'application/json' } }))
  const create = async (user: string, language = 'en') => {
    const answer = await send(user, '/pdf/create', { method: 'POST', body: JSON.stringify({ objectId: 'obj_1', language }) })
    const body = (await answer.json()) as { jobId: string }
    if (answer.status !== 202) console.log(body)
    return body.jobId
  }
  const read = async (user: string, handle: string) =>
    (await (await send(user, `/pdf/create/jobs/${encodeURIComponent(handle)}`)).json()) as { url: string | null; echo: unknown }
  return { create, read, fetch }
}

describe('a file’s owner on memoryStore', () => {
  it('an echo of the owner’s address is never signed for another, however many entries the other’s calls evict; the owner still gets the file', async () => {
    const store = memoryStore({ maxEntries: 60 })
    const { create, read } = proxyOn(store)
    const alice = await create('alice')
    expect((await read('alice', alice)).url).toMatch(signed)
    // Mallory guesses alice's file's address and puts it in her own job's input.
    const mallory = await create('mallory', fileOf('job_1'))
    // Her billed creations push the oldest entries out: alice's hold, her own job's records.
    for (let i = 0; i < 150; i++) await create('mallory')
    const echoed = await read('mallory', mallory)
    expect(echoed.echo).toBeNull()
    expect(JSON.stringify(echoed)).not.toContain('job_1')
    // A second instance (nothing signed lately) on the same store: alice's file is still hers.
    const again = proxyOn(store)
    expect((await again.read('alice', alice)).url).toMatch(signed)
    expect((await again.read('mallory', mallory)).echo).toBeNull()
  })
})

describe('a file’s owner held before the hashed tags (an upgrade)', () => {
  it('stays its owner’s: another whose answer names it is refused, the owner gets it, and the new hold names the owner', async () => {
    const store = memoryStore()
    // Written by the version before: `owner:{f:<path>}`, alice's.
    await store.hold(legacyKeys.owner('/artifacts/shared.pdf'), 'alice', 7 * 86_400_000)
    const fetch: typeof globalThis.fetch = async (input, init) =>
      init?.method === 'POST' ? Response.json({ jobId: `job_${Math.random()}`, status: 'pending' }, { status: 202 }) : Response.json({ status: 'completed', url: fileOf('shared') })
    const { create, read } = proxyOn(store, fetch)
    const mallory = await create('mallory')
    expect((await read('mallory', mallory)).url).toBeNull()
    const alice = await create('alice')
    expect((await read('alice', alice)).url).toMatch(signed)
    expect(await store.get(keys.owner('/artifacts/shared.pdf'))).toBe('alice')
  })

  it('a job made before it, its result never read, still gives its creator the file', async () => {
    const store = memoryStore()
    const { create, read } = proxyOn(store)
    const job = await create('alice')
    // As the version before left it: what the request carried under `written:{j:<job id>}`, no hold yet.
    await store.release(keys.written('job_1'))
    await store.set(legacyKeys.written('job_1'), '[]', 7 * 86_400_000)
    expect((await read('alice', job)).url).toMatch(signed)
  })
})

describe('a file’s owner on Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  beforeAll(async () => {
    redis = await startRedis()
  }, 30_000)
  afterAll(async () => {
    await redis?.stop()
  })

  it('a job’s records that expired never read as permission, and the owner’s use renews their hold', async () => {
    const client = await redis.connect()
    const prefix = 'owners:'
    const fetch = echoingService()
    const first = proxyOn(redisStore(client, { prefix, onError: () => {} }), fetch)
    const alice = await first.create('alice')
    expect((await first.read('alice', alice)).url).toMatch(signed)
    const mallory = await first.create('mallory', fileOf('job_1'))
    // Time passes as Redis sees it: every job's status and what its request carried expired, and
    // alice's hold is about to.
    const expiring = [...(await client.keys(`${prefix}status:*`)), ...(await client.keys(`${prefix}written:*`))]
    await client.del(expiring)
    const owner = `${prefix}${keys.owner('/artifacts/job_1.pdf')}`
    await client.pExpire(owner, 5000)
    // Another instance (nothing signed lately): alice reads her job, which renews her hold.
    const second = proxyOn(redisStore(client, { prefix, onError: () => {} }), fetch)
    expect((await second.read('alice', alice)).url).toMatch(signed)
    expect(await client.pTTL(owner)).toBeGreaterThan(6 * 86_400_000)
    const echoed = await second.read('mallory', mallory)
    expect(echoed.echo).toBeNull()
    expect(JSON.stringify(echoed)).not.toContain('job_1')
  })
})
