// @vitest-environment node
// A job's status across instances: never a step back once it ended, even for a moment, and one
// read of the service at a time, however slow the service.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { memoryStore, redisStore, type ProxyStore } from '../src/server/index.js'
import { createJobStatus, type JobSnapshot, type JobStatusOptions } from '../src/server/jobStatus.js'
import { keys } from '../src/server/keys.js'
import { webhookKey, webhookSignature } from '../src/client/standardWebhooks.js'
import { SITE, testProxy } from './support/proxy.js'
import { startRedis } from './support/redis.js'

const WEBHOOK_SECRET = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'

const key = { toolPath: '/pdf/create', jobId: 'job_1' }
const options: JobStatusOptions = { freshMs: 1000, readMs: 32_000, keepMs: 60_000, leaseMs: 10_000, report: () => {} }
const snapshot = (status: string, readAt: number): JobSnapshot => ({
  status: 200,
  headers: {},
  body: JSON.stringify({ jobId: key.jobId, status }),
  readAt,
  terminal: status === 'completed',
})
const statusIn = (text: string | null | undefined) => (text ? (JSON.parse((JSON.parse(text) as JobSnapshot).body) as { status: string }).status : undefined)

describe('an ended job on Redis, two proxies', () => {
  afterEach(() => {
    vi.useRealTimers()
  })
  let redis: Awaited<ReturnType<typeof startRedis>>
  beforeAll(async () => {
    redis = await startRedis()
  }, 30_000)
  afterAll(async () => {
    await redis?.stop()
  })

  it('never reads "processing" again, even for a moment, when its end’s webhook lands on one proxy while the other’s read is at the service', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const client = await redis.connect()
    const prefix = 'races:'
    const statusKey = prefix + keys.status(key)
    // What every reader could see: the status kept after each of proxy A's trips to Redis.
    const seen: (string | undefined)[] = []
    const trips: Promise<unknown>[] = []
    const plain = redisStore(client, { prefix, onError: () => {} })
    const watched: ProxyStore = {
      ...plain,
      batch: (operations) => {
        const trip = plain.batch!(operations).then(async (answers) => (seen.push(statusIn(await client.get(statusKey))), answers))
        trips.push(trip)
        return trip
      },
    }
    let answer: ((status: string) => void) | undefined
    const service: typeof fetch = async (input, init) => {
      if (new Request(input, init).method === 'POST') return Response.json({ jobId: key.jobId, status: 'pending', requestId: 'req_1' }, { status: 202 })
      // The read is held at the service until the test lets it answer.
      const status = await new Promise<string>((resolve) => (answer = resolve))
      return Response.json({ jobId: key.jobId, status })
    }
    const webhooks = { secret: WEBHOOK_SECRET }
    const a = testProxy(service, { store: watched, webhooks })
    const b = testProxy(service, { store: redisStore(client, { prefix, onError: () => {} }), webhooks })
    const send = (proxy: ReturnType<typeof testProxy>, path: string, init: RequestInit = {}) =>
      proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': 'alice', 'content-type': 'application/json', ...(init.headers as Record<string, string>) } }))
    const { jobId: handle } = (await (await send(a, '/pdf/create', { method: 'POST', body: '{"objectId":"obj_1"}' })).json()) as { jobId: string }
    // No webhook for a minute: the next read goes to the service.
    vi.setSystemTime(Date.now() + 61_000)
    const reading = send(a, `/pdf/create/jobs/${encodeURIComponent(handle)}`)
    await vi.waitFor(() => expect(answer).toBeTypeOf('function'))
    const body = JSON.stringify({ data: { jobId: key.jobId, status: 'completed' } })
    const id = 'msg_end'
    const timestamp = Math.floor(Date.now() / 1000)
    const signature = await webhookSignature(await webhookKey(WEBHOOK_SECRET), id, timestamp, body)
    const delivered = await b.handle(
      new Request(`${SITE}/api/tools/webhooks`, { method: 'POST', body, headers: { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signature } }),
    )
    expect(delivered.status).toBe(204)
    expect(statusIn(await client.get(statusKey))).toBe('completed')
    seen.length = 0
    answer!('processing')
    await reading
    await vi.waitFor(async () => {
      await Promise.all(trips)
      expect(seen.length).toBeGreaterThan(0)
    })
    await Promise.all(trips)
    expect(seen).not.toContain('processing')
    expect(statusIn(await client.get(statusKey))).toBe('completed')
    const after = (await (await send(b, `/pdf/create/jobs/${encodeURIComponent(handle)}`)).json()) as { status: string }
    expect(after.status).toBe('completed')
  })
})

describe('one read of a job at a time, across instances', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it.each([0, 259])('a service taking 2.5 s per read is read once for two instances’ reads %i ms apart', async (gap) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const store = memoryStore()
    let reads = 0
    let atOnce = 0
    let most = 0
    const slowService = async () => {
      reads++
      most = Math.max(most, ++atOnce)
      await new Promise((resolve) => setTimeout(resolve, 2500))
      atOnce--
      return snapshot('processing', Date.now())
    }
    const [a, b] = [createJobStatus(store, slowService, options), createJobStatus(store, slowService, options)]
    await a.put(key, snapshot('processing', Date.now() - 5000))
    const first = a.read(key)
    await vi.advanceTimersByTimeAsync(gap)
    const second = b.read(key)
    await vi.advanceTimersByTimeAsync(5000)
    const answers = await Promise.all([first, second])
    expect(reads).toBe(1)
    expect(most).toBe(1)
    expect(answers.map(({ snapshot }) => statusIn(JSON.stringify(snapshot)))).toEqual(['processing', 'processing'])
  })
})
