// @vitest-environment node
// The proxy's store on one Redis and on a 3-master Redis Cluster, side by side, in one run (both
// real, on loopback, in this process's machine): a call and a job read through the proxy, in store
// round trips (commands sent while none is in flight start one), commands and time; then 200 jobs
// created on one instance and pushed to pages streaming from the other, on the cluster: from the
// webhook taken to the page's event, p50/p99.
import { afterAll, beforeAll, test } from 'vitest'
import { webhookKey, webhookSignature } from '../src/client/standardWebhooks.js'
import { createToolsProxy, redisStore, type ProxyStore } from '../src/server/index.js'
import { reader } from '../test/support/eventReader.js'
import { startRedis } from '../test/support/redis.js'
import { startRedisCluster } from '../test/support/redisCluster.js'

const SITE = 'https://partner.test'
const SERVICE = 'https://tools.cabinet.test/v1'
const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const SAMPLES = 200

let redis: Awaited<ReturnType<typeof startRedis>>
let cluster: Awaited<ReturnType<typeof startRedisCluster>>
beforeAll(async () => {
  ;[redis, cluster] = await Promise.all([startRedis(), startRedisCluster()])
}, 120_000)
afterAll(async () => {
  await Promise.all([redis?.stop(), cluster?.stop()])
})

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!
const created: string[] = []
/** A service answering at once: rent, and report jobs that run until a webhook ends them. */
const service: typeof fetch = async (input, init) => {
  const request = new Request(input, init)
  if (request.url.endsWith('/valuation/rent')) return Response.json({ value: 1, requestId: 'req_1' })
  if (request.method === 'POST') {
    const jobId = `job_${crypto.randomUUID()}`
    created.push(jobId)
    return Response.json({ jobId, status: 'pending', requestId: 'req_1' }, { status: 202 })
  }
  return Response.json({ jobId: request.url.split('/').pop(), status: 'processing' })
}

/** `client` with its script runs and publishes counted: trips (sent while none is in flight) and commands. */
function counted<T extends object>(client: T) {
  const count = { trips: 0, commands: 0 }
  let open = 0
  const wrapped = new Proxy(client, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown
      if (typeof value !== 'function') return value
      if (!['eval', 'evalSha', 'publish', 'sPublish'].includes(String(property))) return value.bind(target)
      return (...args: unknown[]) => {
        count.commands++
        if (open++ === 0) count.trips++
        return (value.apply(target, args) as Promise<unknown>).finally(() => open--)
      }
    },
  })
  return { client: wrapped, count }
}

function proxyOn(store: ProxyStore, webhooks = false) {
  const proxy = createToolsProxy({
    baseUrl: SERVICE,
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: 'a-test-secret-of-at-least-thirty-two-characters',
    authorize: (request) => ({ user: request.headers.get('x-user') ?? 'alice', tools: ['valuation/rent', 'valuation/report'] }),
    rate: { requests: 1_000_000, perMs: 1000 },
    streamRate: { requests: 1_000_000, perMs: 1000 },
    limits: { calls: 1_000_000, windowMs: 86_400_000 },
    streamsPerUser: 1000,
    fetch: service,
    store,
    onError: () => {},
    ...(webhooks && { webhooks: { secret: WEBHOOK_SECRET } }),
  })
  const send = (path: string, init: RequestInit = {}, user = 'alice') =>
    proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': user, 'content-type': 'application/json', ...(init.headers as object) } }))
  return { proxy, send }
}

/** Per request: store trips, commands and time (p50, p99 in ms) over SAMPLES requests, one at a time. */
async function perRequest(count: { trips: number; commands: number }, request: () => Promise<Response>) {
  await (await request()).arrayBuffer() // the script loaded on every node it meets
  const [trips, commands] = [count.trips, count.commands]
  const times: number[] = []
  for (let n = 0; n < SAMPLES; n++) {
    const started = performance.now()
    await (await request()).arrayBuffer()
    times.push(performance.now() - started)
  }
  const each = (total: number) => (total / SAMPLES).toFixed(2)
  return { trips: each(count.trips - trips), commands: each(count.commands - commands), p50: percentile(times, 50).toFixed(2), p99: percentile(times, 99).toFixed(2) }
}

test('a call and a job read: one Redis beside a 3-master cluster', async () => {
  const rows: Record<string, string | number>[] = []
  const stores = {
    'one Redis': counted(await redis.connect()),
    'Redis Cluster (3 masters)': counted(await cluster.connect()),
  }
  for (const [name, { client, count }] of Object.entries(stores)) {
    const { send } = proxyOn(redisStore(client as never, { prefix: `bench-${name.length}:`, onError: () => {} }))
    const call = await perRequest(count, () => send('/valuation/rent', { method: 'POST', body: JSON.stringify({ propertyCategory: 'flat', totalArea: 50, city: 'Berlin' }) }))
    const job = (await (await send('/valuation/report', { method: 'POST', body: JSON.stringify({ objectId: 'obj_1' }) })).json()) as { jobId: string }
    const read = await perRequest(count, () => send(`/valuation/report/jobs/${encodeURIComponent(job.jobId)}`))
    const creation = await perRequest(count, () => send('/valuation/report', { method: 'POST', body: JSON.stringify({ objectId: 'obj_1' }) }))
    rows.push({ store: name, request: 'job creation', trips: creation.trips, commands: creation.commands, 'p50 ms': creation.p50, 'p99 ms': creation.p99 })
    rows.push({ store: name, request: 'call (valuation/rent)', trips: call.trips, commands: call.commands, 'p50 ms': call.p50, 'p99 ms': call.p99 })
    rows.push({ store: name, request: 'job read (from the store)', trips: read.trips, commands: read.commands, 'p50 ms': read.p50, 'p99 ms': read.p99 })
  }
  console.table(rows)
}, 120_000)

/** 200 jobs created on instance A, each watched by a page streaming from instance B; their ending webhooks sent to A `together` at a time. */
async function pushed(connect: () => Promise<unknown>, together: number) {
  const prefix = `bench-push-${crypto.randomUUID()}:`
  const [a, b] = [proxyOn(redisStore((await connect()) as never, { prefix, onError: () => {} }), true), proxyOn(redisStore((await connect()) as never, { prefix, onError: () => {} }), true)]
  const jobs = 200
  created.length = 0
  const handles: string[] = []
  for (let n = 0; n < jobs; n++) {
    const answer = (await (await a.send('/valuation/report', { method: 'POST', body: JSON.stringify({ objectId: `obj_${n}` }) }, `user-${n}`)).json()) as { jobId: string }
    handles.push(answer.jobId)
  }
  const ids = [...created]
  // One page per job, each streaming from the other instance; its first event is the job's state.
  const controllers = handles.map(() => new AbortController())
  const pages = await Promise.all(
    handles.map(async (handle, n) => {
      const response = await b.send(`/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`, { signal: controllers[n]!.signal }, `user-${n}`)
      const page = reader(response)
      await page.created()
      return page
    }),
  )
  const key = await webhookKey(WEBHOOK_SECRET)
  const hook = async (jobId: string) => {
    const body = JSON.stringify({ data: { jobId, status: 'completed' } })
    const id = crypto.randomUUID()
    const timestamp = Math.floor(Date.now() / 1000)
    const headers = { 'content-type': 'application/json', 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': await webhookSignature(key, id, timestamp, body) }
    return a.proxy.handle(new Request(`${SITE}/api/tools/webhooks`, { method: 'POST', body, headers }))
  }
  const latencies: number[] = []
  for (let first = 0; first < jobs; first += together) {
    await Promise.all(
      ids.slice(first, first + together).map(async (jobId, offset) => {
        const started = performance.now()
        const told = pages[first + offset]!.next()
        await hook(jobId)
        await told
        latencies.push(performance.now() - started)
      }),
    )
  }
  for (const controller of controllers) controller.abort()
  return { p50: percentile(latencies, 50).toFixed(1), p99: percentile(latencies, 99).toFixed(1) }
}

test('200 jobs created on one instance, pushed to pages on the other', async () => {
  const rows: Record<string, string | number>[] = []
  for (const [name, connect] of [
    ['Redis Cluster (3 masters)', () => cluster.connect()],
    ['one Redis', () => redis.connect()],
  ] as const) {
    for (const together of [1, 200]) {
      const { p50, p99 } = await pushed(connect, together)
      rows.push({ store: name, 'webhooks at once': together, 'webhook → page on the other instance p50 ms': p50, 'p99 ms': p99 })
    }
  }
  console.table(rows)
}, 240_000)
