// @vitest-environment node
// The run core on its own, with no React and no DOM: what a Node script, a worker or another
// framework gets. Durable runs through the client (`journal`, `runs()`, `resume()`), and the run
// observer that the hooks bridge, each against the simulated service.
import { describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { createJournal, memoryJournal, RunObserver, runView } from '../src/tools/internal.js'
import type { WebStorage } from '../src/tools/index.js'
import { stored, webStorage } from './support/webStorage.js'
import { fastClient, setupMockService } from './support/service.js'

const { service } = setupMockService()
const PDF = { objectId: 'obj_demo' }

const calls = () => service.log.filter((entry) => entry.kind === 'call')
const polls = () => service.log.filter((entry) => entry.kind === 'poll')

/** A client whose first job-creating POST is billed and its answer lost: the run a crash would leave. */
async function crashedRun(storage: WebStorage, apiKey = MOCK_KEYS.demo, user?: string) {
  service.inject({ match: { kind: 'call' }, fault: 'lost' })
  const first = fastClient(apiKey, { journal: storage, retry: false, user })
  await expect(first.run('pdf/create', PDF)).rejects.toMatchObject({ kind: 'network' })
}

describe('a client with a journal', () => {
  it('journals a deferred run before its POST leaves, and forgets it once its end is seen', async () => {
    const storage = webStorage()
    service.inject({ match: { kind: 'call' }, fault: 'held' })
    const client = fastClient(MOCK_KEYS.demo, { journal: storage })
    const abort = new AbortController()
    const held = client.run('pdf/create', PDF, { signal: abort.signal }).catch((error: unknown) => error)
    await vi.waitFor(() => expect(calls()).toHaveLength(1))
    expect(stored(storage)).toMatchObject([{ tool: 'pdf/create', phase: 'submitting', input: PDF }])
    expect(calls()[0]!.idempotencyKey).toBe(stored(storage)[0].idempotencyKey)
    abort.abort()
    await held

    const fresh = webStorage()
    const job = await fastClient(MOCK_KEYS.demo, { journal: fresh }).run('pdf/create', PDF)
    expect(job).toMatchObject({ phase: 'succeeded' })
    expect(fresh.items.size).toBe(0)
    // A sync tool's call is sent as it is: the service does not promise to replay it.
    await client.run('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Tver' })
    expect(fresh.items.size).toBe(0)
  })

  it('resume() re-sends a run whose answer was lost with its own key, follows it to its end: billed 1', async () => {
    const storage = webStorage()
    await crashedRun(storage)
    expect(service.bills()).toBe(1)

    const restarted = fastClient(MOCK_KEYS.demo, { journal: storage })
    expect(await restarted.runs()).toMatchObject([{ tool: 'pdf/create', phase: 'submitting' }])
    const [resumed, ...more] = await restarted.resume()
    expect(more).toEqual([])
    expect(resumed!.job).toMatchObject({ tool: 'pdf/create', phase: 'succeeded' })
    expect(calls().map((entry) => entry.idempotencyKey)).toEqual([resumed!.run.idempotencyKey, resumed!.run.idempotencyKey])
    expect(calls()[1]!.replay).toBe(true)
    expect(service.bills()).toBe(1)
    expect(await restarted.runs()).toEqual([])
  })

  it('resume() follows a journaled job to its end with no second POST', async () => {
    const storage = webStorage()
    service.inject({ match: { kind: 'poll' }, fault: 'network', times: 1 })
    await expect(fastClient(MOCK_KEYS.demo, { journal: storage, retry: false }).run('pdf/create', PDF)).rejects.toMatchObject({
      kind: 'network',
      jobId: expect.stringMatching(/^job_/),
    })
    expect(stored(storage)).toMatchObject([{ jobId: expect.stringMatching(/^job_/) }])

    const [resumed] = await fastClient(MOCK_KEYS.demo, { journal: storage }).resume()
    expect(resumed!.job).toMatchObject({ phase: 'succeeded', jobId: stored(storage)[0]?.jobId ?? resumed!.run.jobId })
    expect(calls()).toHaveLength(1)
    expect(service.bills()).toBe(1)
    expect(storage.items.size).toBe(0)
  })

  it('keeps each key’s and each person’s runs apart in one storage', async () => {
    const storage = webStorage()
    await crashedRun(storage, MOCK_KEYS.demo, 'alice')
    for (const other of [
      fastClient(MOCK_KEYS.other, { journal: storage, user: 'alice' }),
      fastClient(MOCK_KEYS.demo, { journal: storage, user: 'bob' }),
      fastClient(MOCK_KEYS.demo, { journal: storage }),
    ]) {
      expect(await other.runs()).toEqual([])
      expect(await other.resume()).toEqual([])
    }
    expect(calls()).toHaveLength(1)
    // Neither the key nor the person's id is stored.
    expect(JSON.stringify([...storage.items])).not.toMatch(new RegExp(`${MOCK_KEYS.demo}|alice`))
    const [resumed] = await fastClient(MOCK_KEYS.demo, { journal: storage, user: 'alice' }).resume()
    expect(resumed!.job?.phase).toBe('succeeded')
    expect(service.bills()).toBe(1)
  })

  it('fingerprints a key function by the key it returns, and a relative spelling of the base as the absolute one', async () => {
    const storage = webStorage()
    await crashedRun(storage)
    const again = fastClient(() => Promise.resolve(MOCK_KEYS.demo), { journal: storage, baseUrl: `${MOCK_BASE_URL}/` })
    expect(await again.runs()).toHaveLength(1)
  })
})

describe('the run observer, without React', () => {
  const observe = (journal = createJournal(memoryJournal())) => {
    const observer = new RunObserver({ tool: 'pdf/create', deferred: true, journal })
    const views: string[] = []
    const sender = { client: fastClient(MOCK_KEYS.demo) as never, fingerprint: 'print' }
    observer.subscribe(() => {
      const state = observer.getSnapshot()
      const view = runView({ ...state, deferred: true, fingerprint: 'print', jobError: null, jobWaiting: null })
      if (views.at(-1) !== view.phase) views.push(view.phase)
    })
    return { observer, views, sender, journal }
  }

  it('tells every change through subscribe/getSnapshot: submitting, then the job to its end, journaled as seen', async () => {
    const { observer, views, sender, journal } = observe()
    const job = await observer.runAsync(PDF, {}, sender)
    expect(job).toMatchObject({ phase: 'succeeded' })
    expect(views[0]).toBe('submitting')
    expect(views.at(-1)).toBe('succeeded')
    await vi.waitFor(async () => expect(await journal.list('print')).toMatchObject([{ phase: 'succeeded', seen: true }]))
    expect(observer.getSnapshot().current).toMatchObject({ phase: 'succeeded', seen: true, createdAt: expect.any(Number) })
    expect(polls().length).toBeGreaterThan(0)
  })

  it('a second run while one is in flight is the same run: one POST', async () => {
    const { observer, sender } = observe()
    const [a, b] = [observer.runAsync(PDF, {}, sender), observer.runAsync(PDF, {}, sender)]
    expect(a).toBe(b)
    await a
    expect(calls()).toHaveLength(1)
  })

  it('on mount, re-sends a JSON run never answered with its own key, and follows it: billed 1', async () => {
    const journal = createJournal(memoryJournal())
    service.inject({ match: { kind: 'call' }, fault: 'lost' })
    const first = observe(journal)
    const lost = await first.observer.runAsync(PDF, {}, { ...first.sender, client: fastClient(MOCK_KEYS.demo, { retry: false }) as never }).catch((e: unknown) => e)
    expect(lost).toMatchObject({ kind: 'network' })

    const next = observe(journal)
    const replayed = new Promise((resolve) => next.observer.subscribe(() => next.views.at(-1) === 'succeeded' && resolve(undefined)))
    next.observer.mount('print', undefined, (input, opts) => void next.observer.runAsync(input, opts, next.sender))
    await replayed
    expect(calls().map((entry) => entry.replay)).toEqual([false, true])
    expect(service.bills()).toBe(1)
  })

  it('reset() sets a job aside: journaled as seen, not resumed by the next mount', async () => {
    const { observer, sender, journal } = observe()
    service.inject({ match: { kind: 'poll' }, fault: 'held' })
    const running = observer.runAsync(PDF, {}, sender).catch((error: unknown) => error)
    await vi.waitFor(() => expect(polls()).toHaveLength(1))
    observer.reset()
    expect(await running).toMatchObject({ kind: 'aborted' })
    expect(observer.getSnapshot().current).toBeUndefined()
    await vi.waitFor(async () => expect(await journal.list('print')).toMatchObject([{ seen: true }]))
    const next = observe(journal)
    const shown = vi.fn()
    next.observer.mount('print', undefined, shown)
    await vi.waitFor(async () => expect(await journal.list('print')).toHaveLength(1))
    expect(shown).not.toHaveBeenCalled()
    expect(next.observer.getSnapshot().current).toBeUndefined()
  })
})
