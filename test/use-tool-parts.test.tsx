// The parts useTool is made of, each through the hook as an app uses it: the run flow (submit,
// follow), the journal writes, the resume on mount, and what is shown under the key in effect.
import { onlineManager, QueryClient } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { useEffect, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import {
  createToolsClient,
  ToolsProvider,
  useRuns,
  useTool,
  type JournalStore,
  type Run,
  type RunOptions,
  type ToolId,
  type ToolPhase,
  type ToolsClient,
  type ToolsError,
  type UseToolResult,
} from '../src/react/index.js'
import { advance, useFakeClock } from './support/clock.js'
import { pngFile, setupMockService } from './support/service.js'

// A 3-second job (pending its first second), read every 100 ms while young.
const { service } = setupMockService({ jobDurationMs: 3_000 })
const POLL = 300

const PDF = { objectId: 'obj_demo' }
const PDF_DE = { objectId: 'obj_demo', language: 'de' }
const RENT = { propertyCategory: 'flat', totalArea: 50, city: 'Tver' }

beforeEach(useFakeClock)
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  onlineManager.setOnline(true)
})

const posts = () => service.log.filter((entry) => entry.kind === 'call')
const polls = () => service.log.filter((entry) => entry.kind === 'poll')
const keys = () => posts().map((entry) => entry.idempotencyKey)

interface ProviderProps {
  apiKey?: string
  user?: string
  client?: ToolsClient
  journal?: JournalStore
  queryClient?: QueryClient
  pollInterval?: number
}

function Provider({ apiKey = MOCK_KEYS.demo, client, pollInterval = POLL, ...props }: ProviderProps & { children?: ReactNode }) {
  const connection = client ? { client } : { baseUrl: MOCK_BASE_URL, apiKey }
  return <ToolsProvider {...connection} {...props} pollInterval={pollInterval} />
}

/** A client that gives up at the first failure, so a lost answer shows as one. */
const oneTry = () => createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo, retry: false, pollInterval: POLL })

/** Each runner's hook as last rendered, and every view it committed (with the run shown). */
const latest: Record<string, UseToolResult<ToolId>> = {}
const history: Record<string, string[]> = {}

function Runner({ name = 'run', tool = 'pdf/create', scope }: { name?: string; tool?: ToolId; scope?: string }) {
  const state = useTool(tool, { scope })
  const view = `${state.phase} ${state.job?.jobId ?? '-'}`
  useEffect(() => {
    latest[name] = state
    ;(history[name] ??= []).push(`${view} ${state.current?.jobId ?? '-'}`)
  })
  return <p data-testid={name}>{view}</p>
}

/** The journaled runs of the key in effect, as useRuns lists them. */
function Runs() {
  const { runs } = useRuns()
  return <p data-testid="runs">{runs.map((run) => `${run.tool} ${run.phase}${run.seen ? ' seen' : ''}`).join(', ')}</p>
}

beforeEach(() => {
  for (const name of Object.keys(latest)) delete latest[name]
  for (const name of Object.keys(history)) delete history[name]
})

/** Renders runners (one pdf/create runner by default) in a provider whose props can change later. */
function page(props: ProviderProps = {}, ...children: ReactNode[]) {
  const ui = (next: ProviderProps) => <Provider {...next}>{children.length ? children : <Runner />}</Provider>
  const view = render(ui(props))
  return { unmount: view.unmount, change: (next: ProviderProps) => view.rerender(ui(next)) }
}

const shown = (name = 'run') => screen.getByTestId(name).textContent
const runs = () => screen.getByTestId('runs').textContent
const hook = (name = 'run') => latest[name]!
const seen = (name: string, jobId: string) => history[name]!.some((view) => view.includes(jobId))
const act0 = (work: () => unknown) => act(() => void work())

/** Advances the fake clock until `check` holds, at most `limit` ms of it. */
async function advanceUntil(check: () => boolean, limit = 10_000) {
  for (let waited = 0; !check() && waited < limit; waited += 50) await advance(50)
  expect(check()).toBe(true)
}

/** Runs `input` in a runner and waits for `phase`; returns the job id shown then, if any. */
async function runTo(phase: ToolPhase, input: object = PDF, opts?: RunOptions, name = 'run') {
  act0(() => hook(name).run(input as never, opts))
  await advanceUntil(() => hook(name).phase === phase)
  return hook(name).job?.jobId
}

/** A run's outcome, whether it resolves or rejects. */
const outcome = (promise: Promise<unknown>) => promise.then((value) => ({ value }), (error: ToolsError) => ({ error }))

/** A journal store that answers every call after `delay` ms, as a remote one would. */
function slowStore(delay: number): JournalStore {
  const map = new Map<string, Run>()
  const later = <T,>(answer: () => T) => new Promise<T>((resolve) => setTimeout(() => resolve(answer()), delay))
  return {
    get: (key) => later(() => map.get(key)),
    set: (key, run) => later(() => void map.set(key, run)),
    remove: (key) => later(() => void map.delete(key)),
    keys: () => later(() => [...map.keys()]),
  }
}

/** An upload that sends a quarter of its body, then stalls. */
class StalledUpload {
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
  responseType = ''
  onload = null
  onerror = null
  onabort: (() => void) | null = null
  open() {}
  setRequestHeader() {}
  getAllResponseHeaders() {
    return ''
  }
  send() {
    setTimeout(() => this.upload.onprogress?.({ loaded: 10, total: 40, lengthComputable: true } as ProgressEvent), 10)
  }
  abort() {
    this.onabort?.()
  }
}

describe('submit', () => {
  it('sends a sync tool’s call as it is: one POST, billed once, nothing journaled', async () => {
    page({}, <Runner tool="valuation/rent" />, <Runs />)
    await runTo('succeeded', RENT)
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
    expect(runs()).toBe('')
  })

  it('journals a deferred run and shows it before its POST is answered', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'held' })
    page({}, <Runner />, <Runs />)
    act0(() => hook().run(PDF))
    await advance(200)
    expect(hook().phase).toBe('submitting')
    expect(hook().current).toMatchObject({ phase: 'submitting', input: PDF })
    expect(runs()).toBe('pdf/create submitting')
  })

  it('shows a file’s upload progress as its body goes out', async () => {
    page({}, <Runner tool="photo/enhance" />)
    const file = pngFile()
    await runTo('succeeded', { file })
    expect(hook().uploadProgress!.loaded).toBe(hook().uploadProgress!.total)
    expect(hook().uploadProgress!.total).toBeGreaterThanOrEqual(file.size)
    // Its file was sent: none to ask for.
    expect(hook().current?.file).toBeDefined()
    expect(hook().needsFile).toBe(false)
  })
})

describe('one intent, one key', () => {
  /** Runs `input` in runner `name` and loses the answer (billed, never heard): the run stays unfinished. */
  async function lost(name: string, input: object, opts?: RunOptions) {
    service.inject({ match: { kind: 'call' }, fault: 'lost' })
    act0(() => hook(name).run(input as never, opts))
    await advanceUntil(() => hook(name).error?.kind === 'network')
  }

  it('sends the same input again with the key of its unfinished run: a replay, billed once', async () => {
    page({ client: oneTry() })
    await lost('run', PDF)
    await runTo('succeeded')
    expect(keys()[1]).toBe(keys()[0])
    expect(posts()[1]).toMatchObject({ replay: true })
    expect(service.bills()).toBe(1)
  })

  it('sends another input as a new intent, with a key of its own', async () => {
    page({ client: oneTry() })
    await lost('run', PDF)
    await runTo('succeeded', PDF_DE)
    expect(keys()[1]).not.toBe(keys()[0])
  })

  it('pays again for the input of a finished run', async () => {
    page()
    await runTo('succeeded')
    act0(() => hook().run(PDF))
    await advanceUntil(() => posts().length === 2 && hook().phase === 'succeeded')
    expect(keys()[1]).not.toBe(keys()[0])
    expect(service.bills()).toBe(2)
  })

  it('keeps another tool’s run and another scope’s apart, though the input is the same', async () => {
    page(
      { client: oneTry() },
      <Runner name="text" tool="text/generate" />,
      <Runner name="content" tool="content/generate" />,
      <Runner name="left" tool="text/generate" scope="left" />,
    )
    const input = { prompt: 'a listing text' }
    await lost('text', input)
    act0(() => hook('content').run(input))
    act0(() => hook('left').run(input))
    await advanceUntil(() => posts().length === 3)
    expect(new Set(keys()).size).toBe(3)
  })

  it('sends a key given with the run, not the key of an unfinished run of the same input', async () => {
    page({ client: oneTry() })
    await lost('run', PDF, { idempotencyKey: 'key-one' })
    act0(() => hook().run(PDF, { idempotencyKey: 'key-two' }))
    await advanceUntil(() => posts().length === 2)
    expect(keys()).toEqual(['key-one', 'key-two'])
  })

  it('keeps the journaled phase of a job the service already answered for', async () => {
    const first = page({ queryClient: new QueryClient() })
    const jobId = await runTo('running')
    // Set aside mid-job, then the page is left: nothing is resumed on the next one.
    act0(() => hook().reset())
    first.unmount()

    page({ queryClient: new QueryClient() })
    act0(() => hook().run(PDF))
    await advance(50)
    // The same intent's job is known: followed with no second POST, the run as the journal last knew it.
    expect(posts()).toHaveLength(1)
    expect(hook().current).toMatchObject({ jobId, phase: 'running' })
  })
})

describe('a POST that fails', () => {
  it('drops a refused run: nothing is journaled, resumed or sent again', async () => {
    const broke = { apiKey: MOCK_KEYS.broke }
    const first = page(broke, <Runner tool="text/generate" />, <Runs />)
    await runTo('failed', { prompt: 'a listing text' })
    expect(hook().error?.kind).toBe('billing')
    expect(runs()).toBe('')
    first.unmount()

    page(broke, <Runner tool="text/generate" />)
    await advance(1_000)
    expect(shown()).toBe('idle -')
    expect(posts()).toHaveLength(1)
  })

  it.each([
    ['lost', 'network'],
    ['server-error', 'server'],
  ] as const)('keeps a run whose POST met %s: the next mount sends it again with its key, billed once', async (fault, kind) => {
    const first = page({ client: oneTry() })
    service.inject({ match: { kind: 'call' }, fault })
    act0(() => hook().run(PDF))
    await advanceUntil(() => hook().error?.kind === kind)
    first.unmount()

    page({ client: oneTry() })
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(keys()[1]).toBe(keys()[0])
    expect(service.bills()).toBe(1)
  })

  it('sets aside a run reset while its POST is out: listed, not resumed, and its input again reuses its key', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'held' })
    const first = page({}, <Runner />, <Runs />)
    act0(() => hook().run(PDF))
    await advance(200)
    act0(() => hook().reset())
    await advance(200)
    expect(runs()).toBe('pdf/create submitting seen')
    first.unmount()

    page()
    await advance(1_000)
    expect(shown()).toBe('idle -')
    expect(posts()).toHaveLength(1)
    await runTo('succeeded')
    expect(posts()[1]).toMatchObject({ idempotencyKey: keys()[0], replay: true })
    expect(service.bills()).toBe(1)
  })

  it('forgets a run reset before its upload was whole: nothing was billed', async () => {
    vi.stubGlobal('XMLHttpRequest', StalledUpload)
    page({}, <Runner tool="photo/enhance" />, <Runs />)
    act0(() => hook().run({ file: pngFile() }))
    await advance(100)
    expect(runs()).toBe('photo/enhance submitting')
    act0(() => hook().reset())
    await advance(100)
    expect(runs()).toBe('')
    expect(service.bills()).toBe(0)
  })
})

describe('follow', () => {
  it('resolves a sync tool’s runAsync with its result, reading no job', async () => {
    page({}, <Runner tool="valuation/rent" />)
    const done = outcome(hook().runAsync(RENT))
    await advance(500)
    expect(await done).toMatchObject({ value: { tool: 'valuation/rent' } })
    expect(polls()).toHaveLength(0)
  })

  it('resolves a deferred tool’s runAsync with its terminal job, and rejects it with job-failed for a failed one', async () => {
    page()
    const done = outcome(hook().runAsync(PDF))
    await advance(4_000)
    expect(await done).toMatchObject({ value: { phase: 'succeeded', tool: 'pdf/create' } })
    expect(hook().result).toMatchObject({ phase: 'succeeded', tool: 'pdf/create' })

    service.setOutcome(() => 'failed')
    const failed = outcome(hook().runAsync(PDF_DE))
    await advance(4_000)
    expect(await failed).toMatchObject({ error: { kind: 'job-failed' } })
    expect(hook().phase).toBe('failed')
    expect(hook().error?.kind).toBe('job-failed')
  })

  it('stops following when nobody watches: runAsync rejects, nothing is read, and the next mount follows the job', async () => {
    service.setLatency(500)
    const first = page()
    const done = outcome(hook().runAsync(PDF))
    await advance(100)
    first.unmount()
    await advance(3_000)
    expect(await done).toMatchObject({ error: { kind: 'aborted' } })
    expect(polls()).toHaveLength(0)

    service.setLatency(0)
    page()
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(posts()).toHaveLength(1)
  })

  it('ends a run reset after the service answered, while the answer was being journaled', async () => {
    page({ journal: slowStore(300) })
    const done = outcome(hook().runAsync(PDF))
    await advanceUntil(() => posts().length === 1)
    act0(() => hook().reset())
    await advance(4_000)
    expect(await done).toMatchObject({ error: { kind: 'aborted' } })
  })

  it('rejects as aborted when TanStack cancels the job’s read', async () => {
    const queryClient = new QueryClient()
    page({ queryClient })
    const done = outcome(hook().runAsync(PDF))
    await advanceUntil(() => polls().length > 0)
    await act(() => queryClient.cancelQueries(undefined, { revert: false }))
    await advance(100)
    expect(await done).toMatchObject({ error: { kind: 'aborted' } })
  })
})

describe('what is shown under the key in effect', () => {
  it('drops another person’s run at once, finished or not, and reads nothing for them', async () => {
    const { change } = page({ user: 'alice' })
    await runTo('running')
    change({ user: 'bob' })
    expect(shown()).toBe('idle -')
    const reads = polls().length
    await advance(4_000)
    expect(shown()).toBe('idle -')
    expect(polls()).toHaveLength(reads)
  })

  it('takes a run finished under one key out of view when the key changes', async () => {
    const { change } = page()
    await runTo('succeeded')
    change({ apiKey: MOCK_KEYS.limited })
    expect(shown()).toBe('idle -')
    await advance(1_000)
    expect(shown()).toBe('idle -')
  })

  it('keeps a run unfinished at a key change, following it to its end with the key that created it', async () => {
    const { change } = page()
    const jobId = await runTo('running')
    change({ apiKey: MOCK_KEYS.limited })
    expect(shown()).toBe(`running ${jobId}`)
    await advanceUntil(() => shown() === `succeeded ${jobId}`)
    await advance(1_000)
    expect(shown()).toBe(`succeeded ${jobId}`)
    expect(polls().every((entry) => entry.key === MOCK_KEYS.demo && entry.status === 200)).toBe(true)
  })
})

describe('the phase and what it waits for', () => {
  it('shows a sync tool’s answer and refusal only under the key that sent them', async () => {
    const { change } = page({}, <Runner tool="valuation/rent" />)
    /** Every view committed from now on, even the first one under a new key. */
    const from = (count = history.run!.length) => () => new Set(history.run!.slice(count))

    await runTo('succeeded', RENT)
    let after = from()
    change({ apiKey: MOCK_KEYS.broke })
    await advance(100)
    expect(after()).toEqual(new Set(['idle - -']))
    expect(hook().result).toBeUndefined()

    await runTo('failed', RENT)
    expect(hook().error?.kind).toBe('billing')
    after = from()
    change({ apiKey: MOCK_KEYS.demo })
    await advance(100)
    expect(after()).toEqual(new Set(['idle - -']))
    expect(hook().error).toBeNull()
  })

  it('waits out a rate limit on the call while submitting', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 2000 })
    page({}, <Runner tool="valuation/rent" />)
    act0(() => hook().run(RENT))
    await advance(500)
    expect(hook().phase).toBe('submitting')
    expect(hook().waiting?.reason).toBe('rate-limit')
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(hook().waiting).toBeNull()
  })

  it('waits offline while TanStack holds the call, and sends it once back online', async () => {
    onlineManager.setOnline(false)
    page({}, <Runner tool="valuation/rent" />)
    act0(() => hook().run(RENT))
    await advance(500)
    expect(hook().phase).toBe('submitting')
    expect(hook().waiting?.reason).toBe('offline')
    expect(posts()).toHaveLength(0)
    act0(() => onlineManager.setOnline(true))
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(posts()).toHaveLength(1)
  })

  it('shows what the job’s reads wait for while it runs', async () => {
    page()
    await runTo('pending')
    service.inject({ match: { kind: 'poll' }, fault: 'rate-limit', retryAfterMs: 2000 })
    await advanceUntil(() => hook().waiting?.reason === 'rate-limit')
    expect(['pending', 'running']).toContain(hook().phase)
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(hook().waiting).toBeNull()
  })

  it('fails a run whose job cannot be read; retry reads it again, with no second POST', async () => {
    page()
    // Every try of the client's reads fails: the first and its four retries.
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 5 })
    act0(() => hook().run(PDF))
    await advanceUntil(() => hook().phase === 'failed', 30_000)
    expect(hook().error?.kind).toBe('server')
    expect(hook().current?.jobId).toMatch(/^job_/)

    act0(() => hook().retry())
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(posts()).toHaveLength(1)
  })

  it('shows a resumed run’s journaled phase until its job is read', async () => {
    const first = page({ queryClient: new QueryClient() })
    await runTo('running')
    first.unmount()

    service.setLatency(500)
    page({ queryClient: new QueryClient() })
    await advance(200)
    expect(hook().phase).toBe('running')
    expect(hook().job).toBeUndefined()
  })

  it('shows no job while a new run is submitting', async () => {
    page({ journal: slowStore(200) })
    await runTo('succeeded')
    act0(() => hook().run(PDF_DE))
    await advance(50)
    expect(hook().phase).toBe('submitting')
    expect(hook().job).toBeUndefined()
  })
})

describe('resume on mount', () => {
  /** Starts a run on a page of its own and leaves it once its job exists; returns the job id. */
  async function leaveMidJob(props: ProviderProps = {}, input: object = PDF) {
    const left = page(props, <Runner name="left page" />)
    act0(() => hook('left page').run(input as never))
    await advanceUntil(() => Boolean(hook('left page').job))
    left.unmount()
    return hook('left page').job!.jobId
  }

  it('resumes the newest unseen run of its own tool and scope only', async () => {
    const jobId = await leaveMidJob()
    page({}, <Runner name="same" />, <Runner name="scoped" scope="left" />, <Runner name="other" tool="text/generate" />)
    await advance(200)
    expect(shown('same')).toMatch(new RegExp(` ${jobId}$`))
    expect(shown('scoped')).toBe('idle -')
    expect(shown('other')).toBe('idle -')
  })

  it('does not resume a run whose end was shown, nor one set aside', async () => {
    const first = page()
    await runTo('succeeded')
    await runTo('running', PDF_DE)
    act0(() => hook().reset())
    first.unmount()

    page({}, <Runner name="next" />)
    await advance(1_000)
    expect(shown('next')).toBe('idle -')
    expect(posts()).toHaveLength(2)
  })

  it('sends again a JSON run never answered, asks for the file of a file run, and follows a run with a job', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'held', times: 2 })
    const first = page({}, <Runner name="pdf" />, <Runner name="photo" tool="photo/enhance" />)
    act0(() => hook('pdf').run(PDF))
    act0(() => hook('photo').run({ file: pngFile(), mode: 'auto' }))
    await advance(200)
    first.unmount()
    const jobId = await leaveMidJob({}, { collectionId: 'col_demo' })

    page({}, <Runner name="pdf" />, <Runner name="photo" tool="photo/enhance" />)
    await advance(200)
    // The newest unseen pdf run has a job: followed, not sent again.
    expect(shown('pdf')).toMatch(new RegExp(` ${jobId}$`))
    expect(hook('photo').needsFile).toBe(true)
    expect(hook('photo').current?.file).toMatchObject({ name: 'room.png', type: 'image/png' })
    expect(hook('photo').current?.input).toEqual({ mode: 'auto' })
    expect(posts()).toHaveLength(3)

    // With the job's run seen, the run never answered is the next one resumed: sent again.
    await advanceUntil(() => hook('pdf').phase === 'succeeded')
    act0(() => hook('pdf').reset())
    page({}, <Runner name="again" />)
    await advanceUntil(() => hook('again').phase === 'succeeded')
    expect(posts()).toHaveLength(4)
    expect(posts()[3]).toMatchObject({ idempotencyKey: keys()[0], replay: true })
    expect(service.bills()).toBe(3)
  })

  it('keeps a finished run of its own key when the journal is read again', async () => {
    const { change } = page()
    const jobId = await runTo('succeeded')
    // Another page's run of the same tool, newer and unseen.
    await leaveMidJob({}, PDF_DE)

    // A new client for the provider: the hook reads the journal again.
    change({ pollInterval: POLL + 1 })
    await advance(500)
    expect(shown()).toBe(`succeeded ${jobId}`)
  })

  it('at a key change, keeps another key’s unfinished run in place of the new key’s unseen one', async () => {
    const other = { apiKey: MOCK_KEYS.other }
    const unseen = await leaveMidJob(other, { objectId: 'obj_other' })
    const jobId = await leaveMidJob()
    // Resumed, not run here: nothing is in flight to hold the journal back.
    const { change } = page()
    await advanceUntil(() => shown() === `pending ${jobId}`)

    change(other)
    await advanceUntil(() => shown() === `succeeded ${jobId}`)
    expect(seen('run', unseen)).toBe(false)
  })

  it('at a key change, lets a finished run of the old key go for the new key’s unseen one', async () => {
    const other = { apiKey: MOCK_KEYS.other }
    const unseen = await leaveMidJob(other, { objectId: 'obj_other' })
    const { change } = page()
    await runTo('succeeded', PDF_DE)

    change(other)
    await advance(500)
    expect(shown()).toMatch(new RegExp(` ${unseen}$`))
  })

  it('lets another person’s run go for the signed-in person’s unseen one', async () => {
    const bobs = await leaveMidJob({ user: 'bob' })
    const alices = await leaveMidJob({ user: 'alice' })
    // Resumed, not run here: nothing is in flight to hold the journal back.
    const { change } = page({ user: 'alice' })
    await advanceUntil(() => shown() === `pending ${alices}`)

    change({ user: 'bob' })
    await advance(500)
    expect(shown()).toMatch(new RegExp(` ${bobs}$`))
  })

  it('ignores a journal read made for the key before the last change', async () => {
    const journal = slowStore(200)
    const jobId = await leaveMidJob({ journal })
    const { change } = page({ journal })
    change({ journal, apiKey: MOCK_KEYS.limited })
    await advance(2_000)
    expect(shown()).toBe('idle -')
    expect(seen('run', jobId)).toBe(false)
  })

  it('resumes nothing while a run is in flight', async () => {
    const journal = slowStore(200)
    const jobId = await leaveMidJob({ journal })
    page({ journal })
    await runTo('succeeded', PDF_DE)
    expect(seen('run', jobId)).toBe(false)
  })
})

describe('retry', () => {
  it('sends a lost answer’s run again with its key, and a failed job’s afresh with a new one', async () => {
    page({ client: oneTry() })
    service.inject({ match: { kind: 'call' }, fault: 'lost' })
    act0(() => hook().run(PDF))
    await advanceUntil(() => hook().error?.kind === 'network')
    act0(() => hook().retry())
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(posts()[1]).toMatchObject({ idempotencyKey: keys()[0], replay: true })

    // Even a key given with the run: sent again, it would only replay the failed job.
    service.setOutcome(() => 'failed')
    await runTo('failed', PDF_DE, { idempotencyKey: 'key-of-a-failed-job' })
    expect(hook().error?.kind).toBe('job-failed')
    service.setOutcome(() => 'completed')
    act0(() => hook().retry())
    await advanceUntil(() => hook().phase === 'succeeded')
    expect(posts()).toHaveLength(4)
    expect(posts()[3]).toMatchObject({ replay: false })
    expect(keys()[3]).not.toBe('key-of-a-failed-job')
    expect(service.bills()).toBe(3)
  })
})

describe('the journal writes', () => {
  it('sets aside, on reset, the run as its job last stood', async () => {
    page({}, <Runner />, <Runs />)
    await runTo('running')
    await advance(100)
    expect(runs()).toBe('pdf/create running')
    act0(() => hook().reset())
    await advance(100)
    expect(runs()).toBe('pdf/create running seen')
  })
})
