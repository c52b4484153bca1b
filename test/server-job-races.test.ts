// @vitest-environment node
// A job's status across instances: never a step back once it ended, even for a moment, and one
// read of the service at a time, however slow the service.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { memoryStore, redisStore, type ProxyStore } from '../src/server/index.js'
import { createJobStatus, type JobSnapshot, type JobStatusOptions } from '../src/server/jobStatus.js'
import { keys } from '../src/server/keys.js'
import { startRedis } from './support/redis.js'

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

describe('an ended job on Redis, two instances', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  beforeAll(async () => {
    redis = await startRedis()
  }, 30_000)
  afterAll(async () => {
    await redis?.stop()
  })

  it('never reads "processing" again, even for a moment, when its end lands while a read is at the service', async () => {
    const client = await redis.connect()
    const prefix = 'races:'
    const statusKey = prefix + keys.status(`${key.toolPath}:${key.jobId}`)
    // What every reader could see: the status kept after each of instance A's trips to Redis.
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
    let answer!: (snapshot: JobSnapshot) => void
    const a = createJobStatus(watched, () => new Promise((resolve) => (answer = resolve)), options)
    const b = createJobStatus(redisStore(client, { prefix, onError: () => {} }), async () => snapshot('completed', Date.now()), options)
    await b.put(key, snapshot('processing', Date.now() - 5000))

    // A's read reaches the service and is held there while the end's webhook lands on B.
    const reading = a.read(key)
    await vi.waitFor(() => expect(answer).toBeTypeOf('function'))
    await b.put(key, snapshot('completed', Date.now()))
    expect(statusIn(await client.get(statusKey))).toBe('completed')
    seen.length = 0
    answer(snapshot('processing', Date.now()))
    await reading
    await vi.waitFor(async () => {
      await Promise.all(trips)
      expect(seen.length).toBeGreaterThan(0)
    })
    await Promise.all(trips)
    expect(seen).not.toContain('processing')
    expect(statusIn(await client.get(statusKey))).toBe('completed')
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
