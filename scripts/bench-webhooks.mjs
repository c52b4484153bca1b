// `npm run build && node --expose-gc scripts/bench-webhooks.mjs [server module]`: what strangers'
// webhooks cost the proxy, on loopback only, every loop bounded (it stops by itself in about a
// minute). The proxy runs alone in a child process (srvx, memoryStore, webhooks on) so its memory
// and CPU read clean. Measures:
// - RSS for 200 connections that each declare a 4 MiB webhook, send all but its last byte and
//   stall, with no signature headers and with well-formed forged ones; and after they close;
// - the proxy's CPU and a signed-in user's job-read p50 while junk webhooks arrive (4 MiB bodies,
//   8 signatures, 15 a second for 10 s), beside the p50 with none;
// - memoryStore's bytes per owner claim, per request's written set and per finished status.
// Default module: dist/entries/server.js. Pass another build (an earlier commit's) to compare.
import { fork } from 'node:child_process'
import { createServer, request } from 'node:http'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const MB = 1024 * 1024
const SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const modulePath = pathToFileURL(resolve(process.argv[2] ?? 'dist/entries/server.js')).href

if (process.argv[3] === '--child') await child(process.argv[4])
else await main()

/** The proxy, alone: answers `rss`, `cpu` (µs since the last `cpu`) on its IPC channel. */
async function child(service) {
  const { serve } = await import('srvx')
  const { createToolsProxy } = await import(modulePath)
  const proxy = createToolsProxy({
    baseUrl: service,
    apiKey: 'key',
    basePath: '/api/tools',
    secret: 'a-bench-secret-of-at-least-thirty-two-characters',
    authorize: (req) => (req.headers.get('x-user') ? { user: req.headers.get('x-user'), tools: ['pdf/create'] } : null),
    rate: { requests: 1e9, perMs: 1000 },
    webhooks: { secret: SECRET },
    onError: () => {},
  })
  const server = serve({ fetch: (req) => proxy.handle(req), port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
  await server.ready()
  let cpu = process.cpuUsage()
  process.on('disconnect', () => process.exit())
  process.on('message', (what) => {
    globalThis.gc?.()
    if (what === 'rss') process.send({ rss: process.memoryUsage().rss })
    if (what === 'cpu') {
      const used = process.cpuUsage(cpu)
      cpu = process.cpuUsage()
      process.send({ cpu: used.user + used.system })
    }
  })
  process.send({ url: server.url.replace(/\/+$/, '') })
}

async function main() {
  // A service that answers at once: a job creation, then its reads.
  const service = createServer((req, res) => {
    req.resume()
    res.setHeader('content-type', 'application/json')
    res.end(req.method === 'POST' ? '{"jobId":"job_1","status":"pending","requestId":"r"}' : '{"jobId":"job_1","status":"processing","progress":0.5}')
  })
  await new Promise((done) => service.listen(0, '127.0.0.1', done))
  const proxy = fork(new URL(import.meta.url).pathname, [process.argv[2] ?? 'dist/entries/server.js', '--child', `http://127.0.0.1:${service.address().port}/v1`], {
    execArgv: ['--expose-gc'],
  })
  const ask = (what) => new Promise((done) => (proxy.once('message', done), what && proxy.send(what)))
  const { url } = await ask()
  const mib = (bytes) => (bytes / MB).toFixed(0)
  const now = () => String(Math.floor(Date.now() / 1000))
  const forged = (n) => Array.from({ length: n }, (_, i) => `v1,${Buffer.alloc(32, i + 1).toString('base64')}`).join(' ')

  /** Opens `count` connections that each send `bytes - 1` of a declared `bytes` and stall; resolves once all is written or answered. */
  const stall = async (count, bytes, headers) => {
    const open = []
    await Promise.all(
      Array.from({ length: count }, () => new Promise((done) => {
        const req = request(`${url}/api/tools/webhooks`, { method: 'POST', headers: { ...headers(), 'content-length': String(bytes) } })
        req.on('error', done)
        req.on('response', (res) => (res.resume(), done()))
        open.push(req)
        const chunk = Buffer.alloc(64 * 1024, 32)
        let sent = 0
        const pump = () => {
          while (sent < bytes - 1) {
            const part = chunk.subarray(0, Math.min(chunk.length, bytes - 1 - sent))
            sent += part.length
            if (!req.write(part)) return void req.once('drain', pump)
          }
          done()
        }
        pump()
      })),
    )
    return () => open.forEach((req) => req.destroy())
  }
  const settle = () => new Promise((done) => setTimeout(done, 1500))
  const rows = []
  for (const [name, headers] of [
    ['no signature headers', () => ({})],
    ['well-formed forged headers', () => ({ 'webhook-id': `msg_${Math.random()}`, 'webhook-timestamp': now(), 'webhook-signature': forged(1) })],
  ]) {
    const before = (await ask('rss')).rss
    const close = await stall(200, 4 * MB, headers)
    await settle()
    const stalled = (await ask('rss')).rss
    close()
    await settle()
    const after = (await ask('rss')).rss
    rows.push({ 'webhooks (200 stalled, 4 MiB each)': name, 'RSS before (MiB)': mib(before), 'RSS stalled': mib(stalled), 'RSS after they close': mib(after) })
  }
  console.table(rows)

  // A signed-in user's job reads, one after another, for `ms`: their p50 in ms.
  const created = await fetch(`${url}/api/tools/pdf/create`, { method: 'POST', body: '{"objectId":"obj_1"}', headers: { 'content-type': 'application/json', 'x-user': 'alice' } })
  const { jobId } = await created.json()
  const readFor = async (ms) => {
    const times = []
    for (const end = Date.now() + ms; Date.now() < end; ) {
      const start = performance.now()
      // A socket the server closed between two reads: that read is not counted.
      const read = await fetch(`${url}/api/tools/pdf/create/jobs/${encodeURIComponent(jobId)}`, { headers: { 'x-user': 'alice' } }).then((r) => r.text(), () => undefined)
      if (read !== undefined) times.push(performance.now() - start)
      await new Promise((done) => setTimeout(done, 20))
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]
  }
  await readFor(1000) // warm
  await ask('cpu')
  const quiet = await readFor(5000)
  const quietCpu = (await ask('cpu')).cpu / 5e6
  // Junk: 4 MiB bodies with 8 signatures, 15 a second for 10 s, each sent whole.
  const body = Buffer.alloc(4 * MB, 32)
  let junkAnswers = 0
  let junkCut = 0
  const junk = (async () => {
    const sends = []
    for (let i = 0; i < 150; i++) {
      const headers = { 'webhook-id': `msg_${i}`, 'webhook-timestamp': now(), 'webhook-signature': forged(8), 'content-type': 'application/json' }
      sends.push(fetch(`${url}/api/tools/webhooks`, { method: 'POST', body, headers }).then((r) => r.arrayBuffer()).then(() => junkAnswers++, () => junkCut++))
      await new Promise((done) => setTimeout(done, 1000 / 15))
    }
    await Promise.all(sends)
  })()
  const loaded = await readFor(10_000)
  const loadedCpu = (await ask('cpu')).cpu / 10e6
  await junk
  console.table([
    { 'job reads': 'no webhooks', 'p50 (ms)': quiet.toFixed(1), 'proxy CPU': `${(quietCpu * 100).toFixed(0)}%` },
    { 'job reads': 'junk webhooks (4 MiB, 8 signatures, 15/s)', 'p50 (ms)': loaded.toFixed(1), 'proxy CPU': `${(loadedCpu * 100).toFixed(0)}%`, 'junk answered': junkAnswers, 'junk cut mid-body': junkCut },
  ])
  proxy.kill()
  service.close()

  // memoryStore's bytes per item, in this process.
  const { memoryStore } = await import(modulePath)
  const kept = []
  const perItem = async (write) => {
    const store = memoryStore({ maxEntries: 1e9 })
    kept.push(store) // measured while alive
    globalThis.gc()
    const start = process.memoryUsage().heapUsed
    for (let i = 0; i < 100_000; i++) await write(store, i)
    globalThis.gc()
    return ((process.memoryUsage().heapUsed - start) / 100_000).toFixed(0)
  }
  const user = 'user_0123456789abcdef'
  const day = 7 * 24 * 3600 * 1000
  console.table([
    { item: 'owner claim', 'bytes each': await perItem((s, i) => s.hold(`owner:/artifacts/file_${i}.pdf`, user, day)) },
    { item: 'request’s written set', 'bytes each': await perItem((s, i) => s.set(`written:job_${i}`, `["/artifacts/file_${i}.pdf"]`, day)) },
    {
      item: 'finished status',
      'bytes each': await perItem((s, i) => s.set(`status:/pdf/create:job_${i}`, JSON.stringify({ status: 200, body: `{"jobId":"job_${i}","status":"completed","url":"https://tools.example/v1/artifacts/file_${i}.pdf"}`, headers: { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff', 'x-request-id': `req_${i}` }, readAt: Date.now(), terminal: true, since: Date.now() }), 3600_000)),
    },
  ])
}
