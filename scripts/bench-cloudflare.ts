// @vitest-environment node
// The proxy on Cloudflare Workers, in workerd through Miniflare, in front of the simulated service:
// two Workers (two isolates) sharing one Durable Object namespace, beside one Worker on
// memoryStore. For a call and for a job's life (created on one Worker, its page's stream on the
// other, its end told by a webhook taken by the first): object requests each (counted by the
// Worker at its binding), and time, p50 and p99 (for a job, from the service sending its end to
// the page's stream telling it). Loopback and a local workerd: an object request
// costs far less here than between a Worker and its object on Cloudflare, so the counts are the
// figures to carry over, not the times.
import { test } from 'vitest'
import { exampleInput, MOCK_KEYS } from '../src/mock/index.js'
import { listenMockService } from '../test/support/http.js'
import { buildProxyWorker, startWorkers } from '../test/support/workerd.js'

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'
const CALLS = 200
const JOBS = 30

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))]!
const ms = (value: number) => `${value.toFixed(1)} ms`

test('the proxy on Workers: object requests and time per call and per job', async () => {
  let webhooksTo = ''
  /** When the service sent the last job's end (the jobs run one after another). */
  let endSentAt: number | undefined
  const mock = await listenMockService({
    // Long enough for the page's stream to be open before the job ends.
    jobDurationMs: 800,
    webhooks: {
      url: 'https://partner.test/api/tools/webhooks',
      secret: WEBHOOK_SECRET,
      send: async (request) => {
        const body = await request.text()
        if (body.includes('"status":"completed"')) endSentAt = performance.now()
        return fetch(`${webhooksTo}/api/tools/webhooks`, { method: 'POST', body, headers: request.headers })
      },
    },
  })
  const script = await buildProxyWorker('tools-proxy-bench')
  const bindings = { TOOLS_BASE_URL: mock.baseUrl, TOOLS_API_KEY: MOCK_KEYS.demo, TOOLS_PROXY_SECRET: 'a-bench-secret-of-at-least-thirty-two-characters', MAX_UPLOAD_BYTES: String(1024 * 1024), WEBHOOK_SECRET }
  const workers = await startWorkers(script, bindings, [{ name: 'one' }, { name: 'two' }, { name: 'memory', className: false }])
  const { one, two, memory } = workers.urls as Record<'one' | 'two' | 'memory', string>
  webhooksTo = one
  const objectRequests = async () => {
    const [a, b] = await Promise.all([one, two].map(async (url) => (await (await fetch(`${url}/object-requests`)).json()) as number))
    return a! + b!
  }
  try {
    const lines: string[] = []
    const calls = async (urls: string[]) => {
      const times: number[] = []
      const before = await objectRequests()
      for (let index = 0; index < CALLS; index++) {
        const started = performance.now()
        const response = await fetch(`${urls[index % urls.length]}/api/tools/valuation/rent`, {
          method: 'POST',
          body: JSON.stringify(exampleInput('valuation/rent')),
          headers: { 'content-type': 'application/json', 'x-user': `person-${index % 20}` },
        })
        await response.arrayBuffer()
        if (response.status !== 200) throw new Error(`a call answered ${response.status}`)
        times.push(performance.now() - started)
      }
      return { times, objectRequests: ((await objectRequests()) - before) / CALLS }
    }
    // Warm both first: the first request of an isolate builds its proxy.
    await calls([memory, one, two])
    const onMemory = await calls([memory])
    const onObjects = await calls([one, two])
    lines.push(`a call, one Worker on memoryStore: p50 ${ms(percentile(onMemory.times, 50))}, p99 ${ms(percentile(onMemory.times, 99))}`)
    lines.push(`a call, two Workers on Durable Objects: p50 ${ms(percentile(onObjects.times, 50))}, p99 ${ms(percentile(onObjects.times, 99))}, ${onObjects.objectRequests} object requests`)

    const ends: number[] = []
    const before = await objectRequests()
    for (let index = 0; index < JOBS; index++) {
      const headers = { 'content-type': 'application/json', 'x-user': `person-${index % 20}` }
      const created = await fetch(`${one}/api/tools/valuation/report`, { method: 'POST', body: JSON.stringify(exampleInput('valuation/report')), headers })
      const { jobId: handle } = (await created.json()) as { jobId: string }
      endSentAt = undefined
      const stream = await fetch(`${two}/api/tools/events?job=${encodeURIComponent(`valuation/report:${handle}`)}`, { headers })
      const events = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
      let text = ''
      while (!text.includes('"status":"completed"')) {
        const { value, done } = await events.read()
        if (done) throw new Error('the stream ended before the job did')
        text += value
      }
      // From the service sending the end to the page's stream on the other Worker telling it (a
      // stream that opened after the end, on a machine too busy, read it instead: not counted).
      if (endSentAt !== undefined) ends.push(performance.now() - endSentAt)
      await events.cancel()
    }
    const perJob = ((await objectRequests()) - before) / JOBS
    const polls = mock.service.log.filter((entry) => entry.kind === 'poll').length
    lines.push(`a job's life (created on one Worker, streamed on the other, its webhooks taken by the first): ${perJob} object requests, ${polls} reads of the service for ${JOBS} jobs`)
    lines.push(`a job's end, from the service's webhook to the page's stream on the other Worker (${ends.length} jobs): p50 ${ms(percentile(ends, 50))}, p99 ${ms(percentile(ends, 99))}`)
    console.info(`\nWorkers (workerd, Miniflare), ${CALLS} calls, ${JOBS} jobs:\n  ${lines.join('\n  ')}`)
  } finally {
    await workers.dispose()
    await mock.close()
  }
})
