// The proxy's cost over real HTTP on loopback, against the least a proxy can do: a bare hop that
// reads the body, forwards it with the key and passes the answer back. The page, the front servers
// (srvx) and the service (another srvx) are this one process, as on a quiet machine with the
// service next door; built to JavaScript by scripts/bench-proxy.ts and run by plain Node, as a
// partner's server runs the built package (not through the test runner's module loader, which
// makes every call between modules dearer, and so the proxy's many modules dearer than the hop's
// few lines). Scenarios alternate request by request round after round, so load weighs on each
// alike; every answer must be a 200. Prints one line of JSON: `{ title, rows }`.
import { loadavg } from 'node:os'
import { createToolsProxy, memoryStore, redisStore, type ToolsProxyOptions } from '../src/server/index.js'
import { TOOLS } from '../src/tools/index.js'
import { listen } from '../test/support/http.js'
import { startRedis } from '../test/support/redis.js'

const HOP_ROUNDS = 12
const HOP_REQUESTS = 100
const BODY = JSON.stringify({ propertyCategory: 'flat', totalArea: 50, city: 'Berlin' })

/** A proxy for the bench's service: one user with every tool, a rate no bench meets. */
const benchProxy = (options: Partial<ToolsProxyOptions> & Pick<ToolsProxyOptions, 'baseUrl'>) =>
  createToolsProxy({
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: 'a-bench-secret-of-at-least-thirty-two-characters',
    authorize: () => ({ user: 'u_1', tools: TOOLS.map((tool) => tool.id) }),
    rate: { requests: 1e9, perMs: 1000 },
    ...options,
  })

let jobs = 0
const upstream = await listen(async (request) => {
  const { pathname } = new URL(request.url)
  if (request.method === 'POST' && pathname === '/v1/valuation/rent') {
    await request.text()
    return Response.json({ value: 1234, currency: 'EUR', requestId: 'req_1' })
  }
  if (request.method === 'POST') {
    // A job of listing obj_plain makes no file while it runs; the others show a new preview.
    const plain = ((await request.json()) as { objectId?: string }).objectId === 'obj_plain'
    return Response.json({ jobId: `${plain ? 'plain' : 'job'}_${++jobs}`, status: 'pending', requestId: 'req_1' }, { status: 202 })
  }
  const jobId = pathname.split('/').pop()!
  const preview = jobId.startsWith('plain_') ? {} : { preview: `${upstream.url}/v1/artifacts/${jobId}/preview.png` }
  return Response.json({ jobId, status: 'processing', progress: 0.5, ...preview, requestId: 'req_2' })
})
const serviceBase = `${upstream.url}/v1`
const hop = await listen(async (request) => {
  const { pathname } = new URL(request.url)
  const headers = new Headers({ authorization: 'Bearer server-key' })
  const type = request.headers.get('content-type')
  if (type) headers.set('content-type', type)
  const body = request.method === 'POST' ? await request.arrayBuffer() : undefined
  const answer = await fetch(serviceBase + pathname.slice('/api/tools'.length), { method: request.method, headers, body })
  return new Response(await answer.arrayBuffer(), { status: answer.status, headers: { 'content-type': 'application/json' } })
})
const redis = await startRedis()
// A spend cap no bench meets: its counting is part of every call, as for a partner who sets one.
const limits = { calls: 1e9, windowMs: 86_400_000 }
const memoryProxy = benchProxy({ baseUrl: serviceBase, store: memoryStore(), limits })
const redisProxy = benchProxy({ baseUrl: serviceBase, store: redisStore(await redis.connect()), limits })
const fronts = { memory: await listen((request) => memoryProxy.handle(request)), redis: await listen((request) => redisProxy.handle(request)) }
try {
  const bases = { hop: hop.url, memory: fronts.memory.url, redis: fronts.redis.url }
  type Scenario = keyof typeof bases
  const scenarios = Object.keys(bases) as Scenario[]

  const call = async (base: string) => {
    const answer = await fetch(`${base}/api/tools/valuation/rent`, { method: 'POST', body: BODY, headers: { 'content-type': 'application/json' } })
    const text = await answer.text()
    if (answer.status !== 200) throw new Error(`a call answered ${answer.status}: ${text}`)
  }
  // Each read names a job not read before: it reaches the service, as a bare hop's read does.
  const create = async (base: string, objectId: string) => {
    const created = await fetch(`${base}/api/tools/pdf/create`, { method: 'POST', body: JSON.stringify({ objectId }), headers: { 'content-type': 'application/json' } })
    if (created.status !== 202) throw new Error(`a creation answered ${created.status}: ${await created.text()}`)
    return ((await created.json()) as { jobId: string }).jobId
  }
  const handles = { read: { hop: [], memory: [], redis: [] }, plain: { hop: [], memory: [], redis: [] } } as Record<'read' | 'plain', Record<Scenario, string[]>>
  const needed = (HOP_ROUNDS + 1) * HOP_REQUESTS
  for (const scenario of scenarios) {
    for (let index = 0; index < needed; index++) {
      handles.read[scenario].push(await create(bases[scenario], 'obj_1'))
      handles.plain[scenario].push(await create(bases[scenario], 'obj_plain'))
    }
  }
  const read = async (base: string, handle: string) => {
    const answer = await fetch(`${base}/api/tools/pdf/create/jobs/${encodeURIComponent(handle)}`)
    const text = await answer.text()
    if (answer.status !== 200) throw new Error(`a read answered ${answer.status}: ${text}`)
  }

  const kinds = { call: 'sync JSON call', read: 'job read, a new file', plain: 'job read, no new file' }
  type Kind = keyof typeof kinds
  const times = Object.fromEntries(Object.keys(kinds).map((kind) => [kind, { hop: [], memory: [], redis: [] }])) as unknown as Record<Kind, Record<Scenario, number[]>>
  const timed = async (into: number[], request: () => Promise<void>, keep: boolean) => {
    const start = performance.now()
    await request()
    if (keep) into.push(performance.now() - start)
  }
  let next = 0
  for (let round = 0; round <= HOP_ROUNDS; round++) {
    for (let index = 0; index < HOP_REQUESTS; index++, next++) {
      // Each scenario goes first in turn: none always follows the same other.
      const order = [...scenarios.slice(next % 3), ...scenarios.slice(0, next % 3)]
      for (const scenario of order) await timed(times.call[scenario], () => call(bases[scenario]), round > 0) // round 0 warms up
      for (const kind of ['read', 'plain'] as const) {
        for (const scenario of order) await timed(times[kind][scenario], () => read(bases[scenario], handles[kind][scenario][next]!), round > 0)
      }
    }
  }
  const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * q)]!
  const rows = (Object.keys(kinds) as Kind[]).flatMap((kind) => {
    const bare = quantile(times[kind].hop, 0.5)
    const bare90 = quantile(times[kind].hop, 0.9)
    return scenarios.map((scenario) => {
      const p50 = quantile(times[kind][scenario], 0.5)
      const p90 = quantile(times[kind][scenario], 0.9)
      return {
        request: kinds[kind],
        through: scenario === 'hop' ? 'bare hop' : `proxy, ${scenario}Store`,
        'p50 ms': p50.toFixed(3),
        'p50 × hop': (p50 / bare).toFixed(2),
        'p90 ms': p90.toFixed(3),
        'p90 × hop': (p90 / bare90).toFixed(2),
      }
    })
  })
  const load = loadavg().map((value) => value.toFixed(2)).join(' ')
  console.log(JSON.stringify({ title: `Proxy overhead over HTTP (${HOP_ROUNDS} rounds × ${HOP_REQUESTS} requests each; load average ${load})`, rows }))
} finally {
  await Promise.all([upstream.close(), hop.close(), fronts.memory.close(), fronts.redis.close()])
  await redis.stop()
}
process.exit(0)
