// `npm run build && node scripts/bench-hardening.mjs [server module] [scenario…]`: what a stranger
// or one signed-in person can make the proxy's transport cost, on loopback only, every loop
// bounded. The proxy runs alone in a child process (srvx), the attacker in another, the service
// stand-in and the measuring user in this one. Scenarios (all by default):
// - crowd: 24 connections trickling forged webhooks a byte a second, reopened when answered; the
//   service delivers each job's end (retrying as Standard Webhooks senders do: 5 s, then 5 min)
//   right after the job starts: how late the page's stream shows it;
// - slow: 1,500 slow POSTs from nobody (a byte a second), to the webhook route with no signature
//   headers and to a tool: RSS per connection, when they were answered, RSS once they close;
// - junk: 64 KiB webhooks (JUNK_BYTES) with forged signatures as fast as 32 connections send them, beside
//   unauthenticated calls the same way: requests a second, proxy CPU, a user's job read p50;
// - streams: one person opening and closing event streams of 20 jobs as fast as 8 loops can, on a real
//   redis-server: opens a second, Redis commands per open, another user's job read p50.
// Default module: dist/entries/server.js. Pass another build (an earlier commit's) to compare.
import { fork, spawn } from 'node:child_process'
import { createHmac, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request } from 'node:http'
import { createServer as createNetServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const KEY = Buffer.from(SECRET.slice(6), 'base64')
const here = new URL(import.meta.url).pathname
const [mode, ...rest] = process.argv.slice(2)

if (mode === '--proxy') await proxyChild(...rest)
else if (mode === '--attack') await attacker(...rest)
else await main(mode ?? 'dist/entries/server.js', rest)

/** The proxy alone: `{ url }` first; then answers `rss` and `cpu` (µs since the last) on its IPC channel. */
async function proxyChild(modulePath, service, redisUrl) {
  const { serve } = await import('srvx')
  const { createToolsProxy, redisStore } = await import(pathToFileURL(resolve(modulePath)).href)
  let store
  if (redisUrl) {
    const { createClient } = await import('redis')
    const client = createClient({ url: redisUrl })
    await client.connect()
    store = redisStore(client, { onError: () => {} })
  }
  const proxy = createToolsProxy({
    baseUrl: service,
    apiKey: 'key',
    basePath: '/api/tools',
    secret: 'a-bench-secret-of-at-least-thirty-two-characters',
    authorize: (req) => (req.headers.get('x-user') ? { user: req.headers.get('x-user'), tools: ['pdf/create', 'valuation/rent'] } : null),
    webhooks: { secret: SECRET },
    store,
    onError: () => {},
  })
  const server = serve({ fetch: (req) => proxy.handle(req), port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
  await server.ready()
  let cpu = process.cpuUsage()
  process.on('disconnect', () => process.exit())
  process.on('message', (what) => {
    if (what === 'rss') {
      globalThis.gc?.()
      const { rss, heapUsed, external } = process.memoryUsage()
      // What JavaScript holds (the heap, and every buffer), beside what the OS sees.
      process.send({ rss, held: heapUsed + external })
    }
    if (what === 'cpu') {
      const used = process.cpuUsage(cpu)
      cpu = process.cpuUsage()
      process.send({ cpu: used.user + used.system })
    }
  })
  process.send({ url: server.url.replace(/\/+$/, '') })
}

/** The attacker, alone: does `what` against `url` and reports on its IPC channel. */
async function attacker(what, url, ...args) {
  process.on('disconnect', () => process.exit())
  setTimeout(() => process.exit(), 180_000).unref()
  const forged = () => ({
    'webhook-id': `msg_${randomBytes(8).toString('hex')}`,
    'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    'webhook-signature': Array.from({ length: 8 }, () => `v1,${randomBytes(32).toString('base64')}`).join(' '),
  })
  if (what === 'crowd') {
    // As test/support/webhook-crowd.mjs: 24 trickles, reopened when answered.
    const crowd = () => {
      const client = request(url, { method: 'POST', headers: { ...forged(), 'content-length': '4096' } })
      let over = false
      const again = () => {
        if (over) return
        over = true
        clearInterval(trickle)
        client.destroy()
        setImmediate(crowd)
      }
      client.on('response', (res) => (res.resume(), again()))
      client.on('error', again).on('close', again)
      client.write('{')
      const trickle = setInterval(() => client.write(' '), 1000)
    }
    for (let i = 0; i < 24; i++) crowd()
    process.send({ ready: true })
  } else if (what === 'slow') {
    // `count` POSTs declaring 1 MiB, a byte a second: when each was answered, and whether the proxy closed it.
    const [count, headers] = [Number(args[0]), JSON.parse(args[1])]
    const answeredAfter = []
    let closed = 0
    const clients = []
    const started = Date.now()
    for (let i = 0; i < count; i++) {
      const client = request(url, { method: 'POST', headers: { ...headers, 'content-length': String(1024 * 1024) } })
      client.on('response', (res) => (answeredAfter.push(Date.now() - started), res.resume()))
      client.on('error', () => {})
      client.on('close', () => closed++)
      client.write('{')
      clients.push(client)
    }
    const trickle = setInterval(() => clients.forEach((client) => client.destroyed || client.write(' ')), 1000)
    process.on('message', (line) => {
      if (line === 'stats') process.send({ answered: answeredAfter.length, closed, answeredAfter: answeredAfter.sort((a, b) => a - b) })
      if (line === 'close') {
        clearInterval(trickle)
        clients.forEach((client) => client.destroy())
        process.send({ done: true })
      }
    })
    process.send({ ready: true })
  } else {
    // A flood from `loops` loops for `seconds`: junk webhooks, unauthenticated calls, or stream opens.
    const [loops, seconds, handle] = [Number(args[0]), Number(args[1]), args[2]]
    const body = Buffer.alloc(Number(process.env.JUNK_BYTES ?? 64 * 1024), 32)
    const end = Date.now() + seconds * 1000
    const statuses = {}
    const once = async () => {
      if (what === 'junk') return fetch(url, { method: 'POST', body, headers: { ...forged(), 'content-type': 'application/json' } })
      if (what === 'unauthenticated') return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } })
      const page = new AbortController()
      const query = handle
        .split(',')
        .map((each) => `job=${encodeURIComponent(`pdf/create:${each}`)}`)
        .join('&')
      const response = await fetch(`${url}?${query}`, { headers: { 'x-user': 'mallory' }, signal: page.signal })
      if (response.ok) await response.body.getReader().read()
      page.abort()
      return response
    }
    process.send({ ready: true })
    await Promise.all(
      Array.from({ length: loops }, async () => {
        while (Date.now() < end) {
          const response = await once().catch(() => undefined)
          const status = response?.status ?? 0
          statuses[status] = (statuses[status] ?? 0) + 1
          await response?.arrayBuffer().catch(() => {})
        }
      }),
    )
    process.send({ statuses })
  }
}

/** A redis-server of this bench's own on a free loopback port, no persistence. */
async function startRedis() {
  const port = await new Promise((done) => {
    const probe = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => done(port))
    })
  })
  const dir = mkdtempSync(join(tmpdir(), 'bench-hardening-redis-'))
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' })
  const { createClient } = await import('redis')
  const client = createClient({ url: `redis://127.0.0.1:${port}` })
  client.on('error', () => {})
  for (let attempt = 0; ; attempt++) {
    try {
      await client.connect()
      break
    } catch (error) {
      if (attempt > 100) throw error
      await new Promise((done) => setTimeout(done, 50))
    }
  }
  const commands = async () => [...(await client.info('commandstats')).matchAll(/calls=(\d+)/g)].reduce((sum, [, calls]) => sum + Number(calls), 0)
  return {
    url: `redis://127.0.0.1:${port}`,
    commands,
    stop: async () => {
      await client.quit().catch(() => {})
      child.kill()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function main(modulePath, scenarios) {
  const wanted = (name) => scenarios.length === 0 || scenarios.includes(name)
  // The service: creations, and reads of jobs, running until it sends their end.
  let made = 0
  const ended = new Set()
  const service = createServer((req, res) => {
    req.resume()
    res.setHeader('content-type', 'application/json')
    const jobId = req.url.split('/').pop()
    if (req.method === 'POST') res.end(JSON.stringify({ jobId: `job_${++made}`, status: 'pending' }))
    else res.end(JSON.stringify({ jobId, status: ended.has(jobId) ? 'completed' : 'processing' }))
  })
  await new Promise((done) => service.listen(0, '127.0.0.1', done))
  const serviceUrl = `http://127.0.0.1:${service.address().port}/v1`
  const child = (args, execArgv = []) => {
    const process_ = fork(here, args, { execArgv })
    const next = () => new Promise((done) => process_.once('message', done))
    return { next, ask: (what) => (process_.send(what), next()), kill: () => process_.kill() }
  }
  const startProxy = async (redisUrl) => {
    const proxy = child(['--proxy', modulePath, serviceUrl, ...(redisUrl ? [redisUrl] : [])], ['--expose-gc'])
    return { ...proxy, url: (await proxy.next()).url }
  }
  const call = (url, path, user, init = {}) => fetch(`${url}/api/tools${path}`, { ...init, headers: { 'x-user': user, 'content-type': 'application/json', ...init.headers } })
  const create = async (url, user) => (await (await call(url, '/pdf/create', user, { method: 'POST', body: '{"objectId":"obj_1"}' })).json()).jobId
  /** A user's job reads, one after another every 20 ms, for `ms`: their p50 in ms. */
  const readP50 = async (url, handle, ms) => {
    const times = []
    for (const end = Date.now() + ms; Date.now() < end; ) {
      const start = performance.now()
      const ok = await call(url, `/pdf/create/jobs/${encodeURIComponent(handle)}`, 'alice').then((r) => r.text(), () => undefined)
      if (ok !== undefined) times.push(performance.now() - start)
      await new Promise((done) => setTimeout(done, 20))
    }
    return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]
  }
  const ms = (value) => `${value.toFixed(1)} ms`
  const kib = (bytes) => `${(bytes / 1024).toFixed(0)} KiB`

  if (wanted('crowd')) {
    const proxy = await startProxy()
    const attack = child(['--attack', 'crowd', `${proxy.url}/api/tools/webhooks`])
    await attack.next()
    await new Promise((done) => setTimeout(done, 1500))
    const rows = []
    for (let job = 0; job < 2; job++) {
      const handle = await create(proxy.url, 'alice')
      const page = new AbortController()
      const stream = await call(proxy.url, `/events?job=${encodeURIComponent(`pdf/create:${handle}`)}`, 'alice', { signal: page.signal })
      const reader = stream.body.pipeThrough(new TextDecoderStream()).getReader()
      const seen = (async () => {
        for (let text = ''; !text.includes('"status":"completed"'); ) text += (await reader.read()).value ?? ''
      })()
      ended.add(`job_${made}`)
      const body = JSON.stringify({ type: 'job.updated', data: { jobId: `job_${made}`, status: 'completed' } })
      const started = performance.now()
      const tries = []
      // The sender: at once, then after 5 s, then after 5 min (the page's end comes first).
      void (async () => {
        for (const wait of [0, 5000, 300_000]) {
          await new Promise((done) => setTimeout(done, wait).unref())
          const id = `msg_${randomBytes(8).toString('hex')}`
          const timestamp = String(Math.floor(Date.now() / 1000))
          const signature = `v1,${createHmac('sha256', KEY).update(`${id}.${timestamp}.${body}`).digest('base64')}`
          const headers = { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature }
          // The proxy may be gone by a late retry: that try is not counted.
          const answer = await call(proxy.url, '/webhooks', '', { method: 'POST', body, headers }).catch(() => undefined)
          tries.push(answer?.status ?? 'gone')
          if (!answer || answer.ok) return
        }
      })()
      await Promise.race([seen, new Promise((done) => setTimeout(done, 70_000))])
      rows.push({ job, 'delivery answers': tries.join(' '), 'page saw the end after': ms(performance.now() - started) })
      page.abort()
    }
    console.table(rows)
    attack.kill()
    proxy.kill()
  }

  if (wanted('slow')) {
    const rows = []
    for (const [name, path, headers] of [
      ['webhook route, no signature headers', '/webhooks', {}],
      ['a tool, nobody signed in', '/valuation/rent', { 'content-type': 'application/json' }],
    ]) {
      const proxy = await startProxy()
      const before = await proxy.ask('rss')
      const attack = child(['--attack', 'slow', `${proxy.url}/api/tools${path}`, '1500', JSON.stringify(headers)])
      await attack.next()
      await new Promise((done) => setTimeout(done, 5000))
      const during = await proxy.ask('rss')
      const stats = await attack.ask('stats')
      await attack.ask('close')
      await new Promise((done) => setTimeout(done, 2000))
      const after = await proxy.ask('rss')
      rows.push({
        'slow POSTs (1,500, a byte a second)': name,
        'per connection after 5 s: RSS': kib((during.rss - before.rss) / 1500),
        'heap and buffers': kib((during.held - before.held) / 1500),
        'answered within 5 s': stats.answered,
        'answer p50 (from the first opened)': stats.answeredAfter.length ? ms(stats.answeredAfter[Math.floor(stats.answeredAfter.length / 2)]) : '-',
        'closed by the proxy': stats.closed,
        'RSS after they close (MiB)': ((after.rss - before.rss) / 2 ** 20).toFixed(0),
      })
      attack.kill()
      proxy.kill()
    }
    console.table(rows)
  }

  if (wanted('junk')) {
    const proxy = await startProxy()
    const handle = await create(proxy.url, 'alice')
    await readP50(proxy.url, handle, 1000)
    await proxy.ask('cpu')
    const rows = [{ flood: 'none', 'p50 of a user’s read': ms(await readP50(proxy.url, handle, 4000)), 'proxy CPU': `${((await proxy.ask('cpu')).cpu / 4e4).toFixed(0)}%` }]
    for (const [what, path] of [
      ['junk', '/webhooks'],
      ['unauthenticated', '/valuation/rent'],
    ]) {
      const attack = child(['--attack', what, `${proxy.url}/api/tools${path}`, '32', '6'])
      await attack.next()
      await new Promise((done) => setTimeout(done, 1000))
      await proxy.ask('cpu')
      const p50 = await readP50(proxy.url, handle, 4000)
      const cpu = (await proxy.ask('cpu')).cpu / 4e4
      const { statuses } = await attack.next()
      const total = Object.values(statuses).reduce((sum, count) => sum + count, 0)
      rows.push({
        flood: `${what} (${process.env.JUNK_BYTES ?? 65536} B bodies, 32 connections)`,
        'p50 of a user’s read': ms(p50),
        'proxy CPU': `${cpu.toFixed(0)}%`,
        'requests/s': (total / 6).toFixed(0),
        'proxy CPU per request': `${((cpu / 100 / (total / 6)) * 1e6).toFixed(0)} µs`,
        answers: JSON.stringify(statuses),
      })
      attack.kill()
    }
    console.table(rows)
    proxy.kill()
  }

  if (wanted('streams')) {
    const redis = await startRedis()
    const proxy = await startProxy(redis.url)
    const handle = await create(proxy.url, 'alice')
    // Their streams each name 20 jobs of theirs.
    const theirs = []
    for (let job = 0; job < 20; job++) theirs.push(await create(proxy.url, 'mallory'))
    await readP50(proxy.url, handle, 1000)
    // The reads' own commands, taken out of the flood's below.
    const quietStart = await redis.commands()
    const rows = [{ flood: 'none', 'p50 of another user’s read': ms(await readP50(proxy.url, handle, 4000)) }]
    const readsCost = (await redis.commands()) - quietStart
    const attack = child(['--attack', 'streams', `${proxy.url}/api/tools/events`, '8', '6', theirs.join(',')])
    await attack.next()
    await new Promise((done) => setTimeout(done, 1000))
    const before = await redis.commands()
    const p50 = await readP50(proxy.url, handle, 4000)
    const { statuses } = await attack.next()
    const commands = (await redis.commands()) - before
    const total = Object.values(statuses).reduce((sum, count) => sum + count, 0)
    rows.push({
      flood: 'one person opening and closing streams (8 loops)',
      'p50 of another user’s read': ms(p50),
      'opens/s': (total / 6).toFixed(0),
      answers: JSON.stringify(statuses),
      'Redis commands per open': ((commands - readsCost) / ((total / 6) * 4)).toFixed(1),
    })
    console.table(rows)
    proxy.kill()
    await redis.stop()
  }
  service.close()
}
