// Live updates, measured end to end on real parts: the simulated service sending its webhooks,
// two proxy instances sharing a real redis-server, and pages (clients, and useJob in React)
// behind them, all in this one process on the wall clock. Prints one row per target:
// - webhook → useJob shows the end: from the service sending a job's terminal webhook to one
//   instance, to a component on a page streaming from the other instance rendering it;
// - 1,000 pages watching one job over two instances: the service's reads, against one page's;
// - 10,000 open streams on one instance: memory per stream and the heartbeats' CPU;
// - 1,000 jobs on pages whose streams are cut at random: every end seen, and how.
import { act, render } from '@testing-library/react'
import { useEffect } from 'react'
import { createClient } from 'redis'
import { afterAll, beforeAll, test } from 'vitest'
import { createMockService, MOCK_KEYS } from '../src/mock/index.js'
import { createToolsClient, ToolsProvider, useJob } from '../src/react/index.js'
import { createToolsProxy, memoryStore, redisStore, type ProxyStore, type ToolsProxy } from '../src/server/index.js'
import { TOOLS } from '../src/tools/index.js'
import { startRedis } from '../test/support/redis.js'

const SITE = 'https://partner.test'
const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const REPORT = { propertyCategory: 'flat', totalArea: 50 } as const

let redis: Awaited<ReturnType<typeof startRedis>>
beforeAll(async () => {
  redis = await startRedis()
}, 30_000)
afterAll(() => redis?.stop())

const rows: Record<string, string>[] = []
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!
/** The service's job id inside a proxy handle (its first part, base64url): the bench matches webhooks to pages by it. */
const serviceIdOf = (handle: string) => atob(handle.split('.')[0]!.replace(/-/g, '+').replace(/_/g, '/'))

let run = 0
/** A simulated service and two proxy instances on one Redis (or one instance in memory), webhooks on or off. */
async function deployment({ webhooks, jobDuration, instances = 2, heartbeatMs }: { webhooks: boolean; jobDuration: number; instances?: number; heartbeatMs?: number }) {
  const prefix = `bench-${++run}:`
  const arrived = new Map<string, number>()
  const proxies: ToolsProxy[] = []
  const service = createMockService({
    jobDuration,
    webhooks: webhooks
      ? {
          url: `${SITE}/api/tools/webhooks`,
          secret: WEBHOOK_SECRET,
          // Every webhook reaches the first instance; the pages' streams may be on the other.
          send: async (request) => {
            const { data } = (await request.clone().json()) as { data: { jobId: string; status: string } }
            if (data.status === 'completed') arrived.set(data.jobId, performance.now())
            return proxies[0]!.handle(request)
          },
        }
      : undefined,
  })
  const connections: { quit(): Promise<unknown> }[] = []
  for (let i = 0; i < instances; i++) {
    let store: ProxyStore = memoryStore()
    if (instances > 1) {
      const connection = createClient({ url: redis.url })
      connection.on('error', () => {})
      await connection.connect()
      connections.push(connection)
      store = redisStore(connection, { prefix, onError: () => {} })
    }
    proxies.push(
      createToolsProxy({
        baseUrl: service.baseUrl,
        apiKey: MOCK_KEYS.demo,
        basePath: '/api/tools',
        secret: 'a-bench-secret-of-at-least-thirty-two-characters',
        authorize: (request) => ({ user: request.headers.get('x-user') ?? 'u_1', tools: TOOLS.map((tool) => tool.id) }),
        rate: { requests: 1e9, perMs: 1000 },
        fetch: service.fetch,
        store,
        webhooks: webhooks ? { secret: WEBHOOK_SECRET } : undefined,
        streamsPerUser: 20_000,
        heartbeatMs,
        onError: () => {},
      }),
    )
  }
  /** A page's client on instance `i`; `wrap` sees each of its requests' answers. */
  const page = (i: number, wrap?: (request: Request, response: Response) => Response) =>
    createToolsClient({
      baseUrl: `${SITE}/api/tools`,
      fetch: async (input, init) => {
        const request = new Request(input, init)
        const response = await proxies[i % instances]!.handle(request)
        return wrap ? wrap(request, response) : response
      },
    })
  const polls = () => service.log.filter((entry) => entry.kind === 'poll').length
  const close = async () => {
    service.reset()
    await Promise.all(connections.map((connection) => connection.quit().catch(() => {})))
  }
  return { service, proxies, page, polls, arrived, close }
}

/**
 * Opens `count` event streams on `proxy`, spread over `handles`, each read as a page reads it;
 * `bytes()` is what they got. `close()` cancels each body, as a server adapter does when its page
 * disconnects (in process, a Request's signal is held only weakly by the one it follows).
 */
async function openStreams(proxy: ToolsProxy, handles: string[], count: number) {
  let bytes = 0
  const readers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const response = await proxy.handle(new Request(`${SITE}/api/tools/events?job=${encodeURIComponent(`valuation/report:${handles[i % handles.length]}`)}`))
      const reader = response.body!.getReader()
      void (async () => {
        try {
          for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) bytes += chunk.value.byteLength
        } catch {
          // Cancelled by `close()`.
        }
      })()
      return reader
    }),
  )
  return { bytes: () => bytes, close: () => Promise.all(readers.map((reader) => reader.cancel())) }
}

// First, while nothing else has run: a thousand pages' clients (their pacers, their timers) would weigh on the idle figures.
test('10,000 open streams on one instance', async () => {
  const streams = 10_000
  const { page, proxies, close } = await deployment({ webhooks: true, jobDuration: 600_000, instances: 1, heartbeatMs: 1000 })
  const client = page(0)
  const handles = (await Promise.all(Array.from({ length: 100 }, () => client.start('valuation/report', REPORT)))).map((handle) => handle.jobId)
  const gc = (globalThis as { gc?: () => void }).gc
  const used = () => {
    gc?.()
    const { heapUsed, external, arrayBuffers } = process.memoryUsage()
    return heapUsed + external + arrayBuffers
  }
  const before = used()
  const open = await openStreams(proxies[0]!, handles, streams)
  await sleep(2000)
  const perStream = (used() - before) / streams
  /** The share of a core this process spends over `ms` of idle open streams, and the heartbeats each stream got. */
  const idle = async (ms: number) => {
    const cpuBefore = process.cpuUsage()
    const wall = performance.now()
    const bytesBefore = open.bytes()
    await sleep(ms)
    const cpu = process.cpuUsage(cpuBefore)
    return { share: (cpu.user + cpu.system) / 1000 / (performance.now() - wall), beats: (open.bytes() - bytesBefore) / 4 / streams } // ': \n\n' is four bytes
  }
  const stressed = await idle(10_000)
  await open.close()
  await close()
  rows.push({
    target: '10,000 open streams on one instance: memory per stream',
    measured: `${(perStream / 1024).toFixed(1)} kB (page's reader included)`,
    goal: '≤ 20 kB',
  })
  rows.push({
    target: '10,000 open streams: CPU while idle, a heartbeat every second (15× the default)',
    measured: `${(stressed.share * 100).toFixed(1)}% of a core (${stressed.beats.toFixed(1)} beats per stream in 10 s)`,
    goal: '≤ 5% of a core at the default',
  })
}, 180_000)

test('10,000 open streams on one instance, at the default heartbeat', async () => {
  const streams = 10_000
  const { page, proxies, close } = await deployment({ webhooks: true, jobDuration: 600_000, instances: 1 })
  const handles = (await Promise.all(Array.from({ length: 100 }, () => page(0).start('valuation/report', REPORT)))).map((handle) => handle.jobId)
  /** The share of a core this process spends over `ms`. */
  const busy = async (ms: number) => {
    const cpuBefore = process.cpuUsage()
    const wall = performance.now()
    await sleep(ms)
    const cpu = process.cpuUsage(cpuBefore)
    return (cpu.user + cpu.system) / 1000 / (performance.now() - wall)
  }
  const without = await busy(10_000)
  const open = await openStreams(proxies[0]!, handles, streams)
  await sleep(2000)
  const share = await busy(30_000)
  await open.close()
  await close()
  rows.push({
    target: '10,000 open streams: CPU while idle, the default heartbeat (15 s), over 30 s',
    measured: `${(share * 100).toFixed(2)}% of a core (${(without * 100).toFixed(2)}% with no stream open)`,
    goal: '≤ 5% of a core',
  })
}, 180_000)

test('webhook → useJob shows the end', async () => {
  const { page, arrived, close } = await deployment({ webhooks: true, jobDuration: 1500 })
  const client = page(1)
  const shown = new Map<string, number>()
  function Watch({ handle }: { handle: string }) {
    const { data } = useJob('valuation/report', handle)
    useEffect(() => {
      if (data?.status === 'completed') shown.set(handle, performance.now())
    }, [data?.status, handle])
    return null
  }
  const latencies: number[] = []
  for (let batch = 0; batch < 8; batch++) {
    const handles = (await Promise.all(Array.from({ length: 25 }, () => client.start('valuation/report', REPORT)))).map((handle) => handle.jobId)
    const view = render(
      <ToolsProvider client={client} user="u_1">
        {handles.map((handle) => (
          <Watch key={handle} handle={handle} />
        ))}
      </ToolsProvider>,
    )
    while (handles.some((handle) => !shown.has(handle))) await act(() => sleep(20))
    view.unmount()
    for (const handle of handles) latencies.push(shown.get(handle)! - arrived.get(serviceIdOf(handle))!)
  }
  await close()
  rows.push({
    target: 'webhook → useJob shows the end (200 jobs, webhook to one instance, page on the other)',
    measured: `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms`,
    goal: 'p50 ≤ 100 ms, p99 ≤ 300 ms',
  })
}, 120_000)

test('1,000 pages watching one job over two instances', async () => {
  const readsFor = async (webhooks: boolean, pages: number) => {
    const { page, polls, close } = await deployment({ webhooks, jobDuration: 6000 })
    const { jobId } = await page(0).start('valuation/report', REPORT)
    const ends = await Promise.all(Array.from({ length: pages }, (_, i) => page(i).wait('valuation/report', jobId)))
    const reads = polls()
    await close()
    if (ends.some((end) => end.status !== 'completed')) throw new Error('a page missed the end')
    return reads
  }
  const [withOne, withAll, withoutOne, withoutAll] = [await readsFor(true, 1), await readsFor(true, 1000), await readsFor(false, 1), await readsFor(false, 1000)]
  rows.push({
    target: '1,000 pages on one job, 2 instances: service reads, with webhooks',
    measured: `${withAll} (one page: ${withOne})`,
    goal: '0',
  })
  rows.push({
    target: '1,000 pages on one job, 2 instances: service reads, without webhooks',
    measured: `${withoutAll} (one page: ${withoutOne})`,
    goal: `≤ one page's`,
  })
}, 120_000)

test('1,000 jobs on pages whose streams are cut at random', async () => {
  const { page, close } = await deployment({ webhooks: true, jobDuration: 3000 })
  let cuts = 0
  let reads = 0
  let opens = 0
  /** Cuts each event stream at a random moment between 0.2 and 1.5 s, as a dropped connection would. */
  const cutting = (request: Request, response: Response) => {
    const path = new URL(request.url).pathname
    if (!path.endsWith('/events')) {
      if (request.method === 'GET') reads++
      return response
    }
    opens++
    const reader = response.body!.getReader()
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        setTimeout(
          () => {
            cuts++
            controller.error(new TypeError('network error'))
            void reader.cancel()
          },
          200 + Math.random() * 1300,
        )
      },
      async pull(controller) {
        const chunk = await reader.read().catch(() => ({ done: true as const, value: undefined }))
        if (chunk.done) controller.close()
        else controller.enqueue(chunk.value)
      },
    })
    return new Response(body, { status: response.status, headers: response.headers })
  }
  const pages = Array.from({ length: 40 }, (_, i) => page(i, cutting))
  const outcomes = await Promise.all(
    Array.from({ length: 1000 }, async (_, i) => {
      await sleep(Math.random() * 2000)
      const job = await pages[i % pages.length]!.run('valuation/report', REPORT).catch((error: unknown) => error)
      return job && typeof job === 'object' && 'status' in job && job.status === 'completed' ? true : String(job)
    }),
  )
  const failures = [...new Set(outcomes.filter((outcome) => outcome !== true))]
  await close()
  rows.push({
    target: '1,000 jobs, streams cut at random (0.2–1.5 s): ends seen',
    measured: `${outcomes.filter((seen) => seen === true).length} of 1000, ${outcomes.filter((seen) => seen !== true).length} lost${failures.length ? ` (${failures.join('; ')})` : ''} (${cuts} cuts, ${opens} streams, ${reads} page reads)`,
    goal: '0 lost',
  })
}, 180_000)

afterAll(() => {
  console.log('\nLive updates (two proxy instances on a real Redis, the simulated service sending webhooks)\n')
  console.table(rows)
})
