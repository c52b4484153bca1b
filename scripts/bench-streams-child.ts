// One proxy instance alone in a process, behind a real HTTP server (srvx), for a clean reading of
// what idle event streams cost it: the streams' pages are another process's connections. Built to
// JavaScript by scripts/bench-live.tsx. Argument: the heartbeat (ms). Prints `{ url, handles }`
// (100 jobs of user u_1, running for an hour); then, for each `cpu` line on stdin, the CPU time
// (user and system) and the garbage collectors' time since the last one (µs), and the open streams;
// it exits when its stdin closes.
import { PerformanceObserver } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { serve } from 'srvx'
import { createMockService, MOCK_KEYS } from '../src/mock/index.js'
import { createToolsProxy } from '../src/server/index.js'
import { TOOLS } from '../src/tools/index.js'

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
// With webhooks, as live updates are deployed: a quiet job is read once a minute, not polled as a page would (every 1–10 s).
const service = createMockService({
  jobDurationMs: 3_600_000,
  webhooks: { url: 'https://partner.test/api/tools/webhooks', secret: WEBHOOK_SECRET, send: (request) => proxy.handle(request) },
})
let open = 0
const proxy = createToolsProxy({
  baseUrl: service.baseUrl,
  apiKey: MOCK_KEYS.demo,
  basePath: '/api/tools',
  secret: 'a-bench-secret-of-at-least-thirty-two-characters',
  authorize: () => ({ user: 'u_1', tools: TOOLS.map((tool) => tool.id) }),
  fetch: service.fetch,
  webhooks: { secret: WEBHOOK_SECRET },
  // One user's 100 jobs made at once and 10,000 streams: the point is the streams, not the limits.
  rate: { requests: 1e9, perMs: 1000 },
  streamRate: { requests: 1e9, perMs: 1000 },
  streamsPerUser: 20_000,
  heartbeatMs: Number(process.argv[2]),
  onEvent: (event) => {
    if (event.type === 'stream') open = event.open
  },
  onError: () => {},
})
const server = serve({ fetch: (request) => proxy.handle(request), port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
await server.ready()
const url = server.url!.replace(/\/+$/, '')
const handles: string[] = []
for (let i = 0; i < 100; i++) {
  const answer = await proxy.handle(
    new Request(`${url}/api/tools/pdf/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"objectId":"obj_demo"}' }),
  )
  handles.push(((await answer.json()) as { jobId: string }).jobId)
}
console.log(JSON.stringify({ url, handles }))

let gcMicros = 0
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMicros += entry.duration * 1000
}).observe({ entryTypes: ['gc'] })
let since = process.cpuUsage()
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line !== 'cpu') return
  const used = process.cpuUsage(since)
  since = process.cpuUsage()
  console.log(JSON.stringify({ user: used.user, system: used.system, gc: gcMicros, open }))
  gcMicros = 0
})
  // The bench ended (or died): so does this process (a CPU profile, if asked for, is written on the way out).
  .on('close', () => process.exit(0))
