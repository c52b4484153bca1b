// @vitest-environment node
// A journal as it is found in the field: entries another version, another app or a torn write
// left, runs the service refused piling up, and a resume after many crashed runs. `runs()` and
// `resume()` never reject, a good run beside a bad entry still ends billed once, the journal stays
// bounded, and a resume never sends a burst.
import { describe, expect, it } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import type { JournalProblem } from '../src/tools/index.js'
import { fastClient, setupMockService } from './support/service.js'
import { stored, webStorage } from './support/webStorage.js'

const { service } = setupMockService()
const PDF = { objectId: 'obj_demo' }
const calls = () => service.log.filter((entry) => entry.kind === 'call')

/** Runs of `valuation/report` billed and their answers lost (as a crash leaves them), one per city. */
async function crashedRuns(storage: ReturnType<typeof webStorage>, count: number) {
  service.inject({ match: { kind: 'call' }, fault: 'lost', times: count })
  const client = fastClient(MOCK_KEYS.demo, { journal: storage, retry: false })
  for (let city = 0; city < count; city++) {
    await expect(client.run('valuation/report', { city: `City ${city}` })).rejects.toMatchObject({ kind: 'network' })
  }
}

describe('a journal with entries it cannot use', () => {
  it('skips and reports a non-JSON, a foreign and an unknown tool’s entry; the good run beside them ends, billed once', async () => {
    const storage = webStorage()
    service.inject({ match: { kind: 'call' }, fault: 'lost' })
    await expect(fastClient(MOCK_KEYS.demo, { journal: storage, retry: false }).run('pdf/create', PDF)).rejects.toMatchObject({
      kind: 'network',
    })
    const [good] = [...storage.items.keys()]
    const prefix = good!.slice(0, good!.lastIndexOf('/') + 1)
    const [run] = stored(storage)
    storage.items.set(`${prefix}torn`, '{"id":"torn","tool":"pdf/cr')
    storage.items.set(`${prefix}foreign`, JSON.stringify({ hello: 'world' }))
    storage.items.set(`${prefix}retired`, JSON.stringify({ ...run, id: 'retired', tool: 'retired/tool', idempotencyKey: 'k' }))

    const problems: JournalProblem[] = []
    const client = fastClient(MOCK_KEYS.demo, { journal: storage, onJournalError: (problem) => problems.push(problem) })
    await expect(client.runs()).resolves.toMatchObject([{ tool: 'pdf/create' }])
    const resumed = await client.resume()
    expect(resumed).toMatchObject([{ run: { tool: 'pdf/create' }, job: { phase: 'succeeded' } }])
    expect(service.bills()).toBe(1)
    expect(calls()).toHaveLength(2)
    expect(problems.map(({ reason, key, run }) => [reason, key ?? run?.id])).toEqual([
      ['malformed', `${prefix}torn`],
      ['foreign', `${prefix}foreign`],
      ['unknown-tool', 'retired'],
    ])
    // What can never be read is removed; an unknown tool's run is left (another client may know it), told of once.
    expect([...storage.items.keys()]).toEqual([`${prefix}retired`])
  })

  it('a store that cannot be read lists nothing and resumes nothing, and says why', async () => {
    const problems: JournalProblem[] = []
    const broken = { ...webStorage(), key: () => { throw new Error('SecurityError: storage denied') }, length: 1 }
    const client = fastClient(MOCK_KEYS.demo, { journal: broken, onJournalError: (problem) => problems.push(problem) })
    await expect(client.runs()).resolves.toEqual([])
    await expect(client.resume()).resolves.toEqual([])
    expect(problems).toMatchObject([{ reason: 'unavailable' }, { reason: 'unavailable' }])
    expect(service.log).toHaveLength(0)
  })
})

describe('a bounded journal', () => {
  it('40 runs refused with 503 leave the newest 10 under maxRuns 10, the oldest dropped first and reported', async () => {
    const storage = webStorage()
    const problems: JournalProblem[] = []
    service.inject({ match: { kind: 'call' }, fault: 'server-error', times: Infinity })
    const client = fastClient(MOCK_KEYS.demo, {
      journal: storage,
      retry: false,
      journalLimits: { maxRuns: 10 },
      onJournalError: (problem) => problems.push(problem),
    })
    for (let city = 0; city < 40; city++) {
      await expect(client.run('valuation/report', { city: `City ${city}` })).rejects.toMatchObject({ kind: 'server' })
    }
    expect(storage.items.size).toBe(10)
    const sent = calls().map((entry) => entry.idempotencyKey)
    expect(stored(storage).map((run) => run.idempotencyKey).sort()).toEqual(sent.slice(-10).sort())
    expect(problems.map((problem) => problem.reason)).toEqual(Array(30).fill('over-limit'))
    expect(problems.map((problem) => problem.run?.idempotencyKey)).toEqual(sent.slice(0, 30))
  })

  it('drops an unfinished run past 24 hours, reported: the service may have forgotten its key', async () => {
    const storage = webStorage()
    await crashedRuns(storage, 1)
    const [key] = [...storage.items.keys()]
    const [run] = stored(storage)
    storage.items.set(key!, JSON.stringify({ ...run, createdAt: Date.now() - 24 * 3_600_000 - 1 }))
    const problems: JournalProblem[] = []
    const client = fastClient(MOCK_KEYS.demo, { journal: storage, onJournalError: (problem) => problems.push(problem) })
    await expect(client.resume()).resolves.toEqual([])
    expect(problems).toMatchObject([{ reason: 'expired', run: { idempotencyKey: run.idempotencyKey } }])
    expect(storage.items.size).toBe(0)
    expect(calls()).toHaveLength(1)
  })
})

describe('resume() at the key’s pace', () => {
  it('sends the POSTs of 10 crashed runs one at a time, never a burst; each ends, billed once', async () => {
    const storage = webStorage()
    await crashedRuns(storage, 10)
    const posts = { open: 0, most: 0 }
    const counting: typeof fetch = async (input, init) => {
      if (init?.method !== 'POST') return fetch(input, init)
      posts.most = Math.max(posts.most, ++posts.open)
      try {
        return await fetch(input, init)
      } finally {
        posts.open--
      }
    }
    const resumed = await fastClient(MOCK_KEYS.demo, { journal: storage, fetch: counting }).resume()
    expect(resumed.map((one) => one.job?.phase)).toEqual(Array(10).fill('succeeded'))
    expect(posts.most).toBe(1)
    expect(calls().filter((entry) => entry.replay)).toHaveLength(10)
    expect(service.bills()).toBe(10)
  })
})
