import { QueryClient } from '@tanstack/react-query'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { useEffect, useState, type ReactNode } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import {
  isToolsError,
  ToolsProvider,
  useArtifact,
  useJob,
  usePdfCreate,
  usePhotoEnhance,
  type ToolsClientOptions,
  type ToolsError,
} from '../src/react/index.js'
import { ToolRunner } from '../src/components/index.js'
import { advance, useFakeClock } from './support/clock.js'
import { fastClient, pngFile, setupMockService } from './support/service.js'
import { loadUploadForm } from '../src/components/UploadForm.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as a page shown before would have.
beforeAll(() => loadUploadForm())

// A 20-second job, as pdf/create takes on the real service; polled every 3 s, the default.
const { service } = setupMockService({ jobDurationMs: 20_000 })

beforeEach(useFakeClock)
afterEach(() => vi.useRealTimers())

const posts = () => service.log.filter((entry) => entry.kind === 'call')
const polls = () => service.log.filter((entry) => entry.kind === 'poll')

function Provider({
  apiKey = MOCK_KEYS.demo,
  queryClient,
  children,
}: {
  apiKey?: ToolsClientOptions['apiKey']
  queryClient?: QueryClient
  children?: ReactNode
}) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={apiKey} queryClient={queryClient}>
      {children}
    </ToolsProvider>
  )
}

/** The hooks as last rendered, for the test to call. */
const latest: { pdf?: ReturnType<typeof usePdfCreate>; photo?: ReturnType<typeof usePhotoEnhance> } = {}

function PdfRunner() {
  const state = usePdfCreate()
  useEffect(() => {
    latest.pdf = state
  })
  return <p data-testid="pdf">{`${state.phase} ${state.job?.jobId ?? '-'} ${state.result?.artifacts.length ?? 0}`}</p>
}
const shown = () => screen.getByTestId('pdf').textContent

describe('a reload mid-job', () => {
  it('shows the same job on a fresh provider and cache, and follows it to its end: 1 POST, billed 1', async () => {
    const first = render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(3_100)
    const jobId = latest.pdf!.job?.jobId
    expect(jobId).toMatch(/^job_/)
    expect(shown()).toMatch(/^(pending|running) job_/)
    first.unmount()

    render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    await advance(1_000)
    expect(shown()).toMatch(new RegExp(`^(pending|running) ${jobId}`))
    await advance(20_000)
    expect(shown()).toBe(`succeeded ${jobId} 1`)
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })
})

describe('an unmount while the POST is out', () => {
  it('re-sends the unanswered POST with the same key on the next mount: a replay, billed 1', async () => {
    // The service takes the call and bills it, but the answer never reaches the page.
    service.inject({ match: { kind: 'call' }, fault: 'held' })
    const first = render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(500)
    expect(shown()).toBe('submitting - 0')
    first.unmount()

    render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    await advance(25_000)
    expect(shown()).toMatch(/^succeeded job_\w+ 1$/)
    const [sent, resent] = posts()
    expect(posts()).toHaveLength(2)
    expect(resent).toMatchObject({ idempotencyKey: sent!.idempotencyKey, replay: true, billed: null })
    expect(service.bills()).toBe(1)
  })

  it('leaves no poll running for a job nobody watches; the next mount takes it up', async () => {
    service.setLatency(1_000)
    const first = render(
      <Provider>
        <PdfRunner />
      </Provider>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(200)
    first.unmount()
    await advance(10_000)
    expect(posts()).toHaveLength(1)
    expect(polls()).toHaveLength(0)

    service.setLatency(0)
    render(
      <Provider>
        <PdfRunner />
      </Provider>,
    )
    await advance(15_000)
    expect(shown()).toMatch(/^succeeded job_\w+ 1$/)
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })
})

describe('a job whose reads keep failing (case 2)', () => {
  it('client.run rejects naming the job, and client.wait takes it up: billed 1', async () => {
    const client = fastClient(MOCK_KEYS.demo, { pollInterval: 1_000 })
    // A read that keeps failing: five 5xx answers, the first try and its four retries. (Five
    // 429s no longer fail a run: the pace waits them out within retry.maxWait.)
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 5 })
    const outcome = client.run('pdf/create', { objectId: 'obj_demo' }).catch((error: unknown) => error as ToolsError)
    await advance(10_000)
    const error = await outcome
    expect(isToolsError(error) && error.kind).toBe('server')
    expect(error).toMatchObject({ tool: 'pdf/create', jobId: expect.stringMatching(/^job_/) })

    const done = client.wait('pdf/create', (error as ToolsError).jobId!)
    await advance(25_000)
    await expect(done).resolves.toMatchObject({ phase: 'succeeded' })
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('running the same input again in the hook follows the same job rather than paying for another', async () => {
    render(
      <Provider>
        <PdfRunner />
      </Provider>,
    )
    // The job's read fails all five of its tries (the client's retries are the only ones).
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 5 })
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(60_000)
    expect(latest.pdf!.phase).toBe('failed')
    expect(latest.pdf!.error?.kind).toBe('server')
    const jobId = latest.pdf!.current?.jobId
    expect(jobId).toMatch(/^job_/)

    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(5_000)
    expect(shown()).toBe(`succeeded ${jobId} 1`)
    // The job is known: it is followed, with no second POST (not even a replay).
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })
})

describe('retry after a failed read', () => {
  it('reads the job again rather than creating another: no second POST, billed 1', async () => {
    render(
      <Provider>
        <PdfRunner />
      </Provider>,
    )
    // The job exists; only reading it fails, all five of the client's tries.
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 5 })
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(60_000)
    expect(latest.pdf!.phase).toBe('failed')
    expect(latest.pdf!.error?.kind).toBe('server')
    const jobId = latest.pdf!.current?.jobId
    const readsBefore = polls().length

    act(() => latest.pdf!.retry())
    await advance(5_000)
    expect(shown()).toBe(`succeeded ${jobId} 1`)
    expect(polls().length).toBeGreaterThan(readsBefore)
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })
})

describe('cancel after the service took the upload (case 3)', () => {
  it('keeps the run, and sending the same file again reuses its key: billed 1', async () => {
    function PhotoRunner() {
      const state = usePhotoEnhance()
      useEffect(() => {
        latest.photo = state
      })
      return <p data-testid="photo">{state.phase}</p>
    }
    render(
      <Provider>
        <PhotoRunner />
      </Provider>,
    )
    const file = pngFile('room.png')
    service.inject({ match: { kind: 'call' }, fault: 'held' })
    act(() => latest.photo!.run({ file }))
    await advance(500)
    expect(latest.photo!.phase).toBe('submitting')
    act(() => latest.photo!.reset())
    expect(latest.photo!.phase).toBe('idle')

    act(() => latest.photo!.run({ file }))
    await advance(25_000)
    expect(latest.photo!.phase).toBe('succeeded')
    const [sent, again] = posts()
    expect(posts()).toHaveLength(2)
    expect(again).toMatchObject({ idempotencyKey: sent!.idempotencyKey, replay: true })
    expect(service.bills()).toBe(1)
  })
})

describe('a file run cut off mid-upload', () => {
  it('asks for the file again on the next mount and re-sends it with the same key: billed 1', async () => {
    function PhotoRunner() {
      const state = usePhotoEnhance()
      useEffect(() => {
        latest.photo = state
      })
      return <p data-testid="photo">{`${state.phase} ${state.needsFile}`}</p>
    }
    const file = pngFile('room.png')
    service.inject({ match: { kind: 'call' }, fault: 'held' })
    const first = render(
      <Provider>
        <PhotoRunner />
      </Provider>,
    )
    act(() => latest.photo!.run({ file, mode: 'auto' }))
    await advance(500)
    first.unmount()

    render(
      <Provider>
        <PhotoRunner />
      </Provider>,
    )
    await advance(500)
    expect(screen.getByTestId('photo').textContent).toBe('idle true')
    expect(latest.photo!.current?.file).toEqual({ name: 'room.png', type: 'image/png', size: file.size })
    expect(posts()).toHaveLength(1)

    act(() => latest.photo!.run({ file, mode: 'auto' }))
    await advance(25_000)
    expect(screen.getByTestId('photo').textContent).toBe('succeeded false')
    expect(posts()[1]).toMatchObject({ idempotencyKey: posts()[0]!.idempotencyKey, replay: true })
    expect(service.bills()).toBe(1)
  })
})

describe('a key change mid-job (case 4)', () => {
  function SwitchableKey({ children }: { children: ReactNode }) {
    const [key, setKey] = useState<string>(MOCK_KEYS.demo)
    return (
      <Provider apiKey={key}>
        {/* Same account, its second key. */}
        <button onClick={() => setKey(MOCK_KEYS.limited)}>switch key</button>
        {children}
      </Provider>
    )
  }
  const switchKey = () => fireEvent.click(screen.getByRole('button', { name: 'switch key' }))

  it('follows the job to its end with the key that created it: no 404, billed 1', async () => {
    render(
      <SwitchableKey>
        <PdfRunner />
      </SwitchableKey>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(3_500)
    const jobId = latest.pdf!.job?.jobId
    expect(jobId).toMatch(/^job_/)
    switchKey()
    await advance(25_000)
    expect(shown()).toBe(`succeeded ${jobId} 1`)
    expect(polls().every((entry) => entry.key === MOCK_KEYS.demo && entry.status === 200)).toBe(true)
    expect(service.bills()).toBe(1)
  })

  it('a switch while the POST is out still reads the job with its own key', async () => {
    service.setLatency(1_000)
    render(
      <SwitchableKey>
        <PdfRunner />
      </SwitchableKey>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(200)
    switchKey()
    await advance(30_000)
    expect(shown()).toMatch(/^succeeded job_\w+ 1$/)
    expect(polls().length).toBeGreaterThan(0)
    expect(polls().every((entry) => entry.key === MOCK_KEYS.demo && entry.status === 200)).toBe(true)
    expect(service.bills()).toBe(1)
  })
})

describe('apiKey as a function (case 5)', () => {
  it('shows nothing fetched with one key once the function returns another account’s key', async () => {
    const { artifacts } = await fastClient(MOCK_KEYS.demo).run('site/create', { objectId: 'obj_demo' })
    const url = artifacts[0]!
    expect(url).toContain('/artifacts/')
    let key = MOCK_KEYS.demo
    // One function throughout: only what it returns changes.
    const getKey = () => key
    function Viewer() {
      const { blob, error } = useArtifact(url)
      return <p data-testid="artifact">{blob ? 'shown' : (error?.kind ?? 'loading')}</p>
    }
    function App() {
      const [tick, setTick] = useState(0)
      return (
        <Provider apiKey={getKey}>
          <button onClick={() => setTick(tick + 1)}>render again</button>
          <Viewer />
        </Provider>
      )
    }
    render(<App />)
    await advance(500)
    expect(screen.getByTestId('artifact').textContent).toBe('shown')
    const before = service.log.length

    key = MOCK_KEYS.other
    fireEvent.click(screen.getByRole('button', { name: 'render again' }))
    await advance(500)
    expect(screen.getByTestId('artifact').textContent).not.toBe('shown')
    const after = service.log.slice(before)
    expect(after.length).toBeGreaterThan(0)
    expect(after.every((entry) => entry.key === MOCK_KEYS.other)).toBe(true)
  })

  it('an inline key function re-rendering all the time does not multiply polls: one observer’s reads in 3 s', async () => {
    service.freezeJobs()
    const { jobId } = await fastClient(MOCK_KEYS.demo).start('pdf/create', { objectId: 'obj_demo' })
    function Watcher() {
      const { data } = useJob('pdf/create', jobId)
      return <p>{data?.phase ?? 'loading'}</p>
    }
    function App() {
      const [tick, setTick] = useState(0)
      // Something above the provider re-renders ten times a second.
      useEffect(() => {
        const timer = setInterval(() => setTick((n) => n + 1), 100)
        return () => clearInterval(timer)
      }, [])
      return (
        <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={() => MOCK_KEYS.demo}>
          <span>{tick}</span>
          <Watcher />
        </ToolsProvider>
      )
    }
    render(<App />)
    await advance(3_000)
    expect(screen.getByText('pending')).toBeTruthy()
    // One observer's schedule with the default 3 s interval: a read at once, then a third of the
    // interval apart while the job is young (0, 1, 2 and 3 s). A new cache per render made 30.
    const times = polls().map((entry) => entry.at)
    expect(times.length).toBeGreaterThanOrEqual(1)
    expect(times.length).toBeLessThanOrEqual(4)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(900)
  })
})

describe('elapsed time across a reload', () => {
  it('runs from the run’s start as the journal keeps it, not from the new page', async () => {
    const page = () => (
      <Provider queryClient={new QueryClient()}>
        <ToolRunner tool="pdf/create" input={{ objectId: 'obj_demo' }} />
      </Provider>
    )
    const first = render(page())
    fireEvent.click(screen.getByRole('button', { name: 'Run' }))
    await advance(3_100)
    expect(document.querySelector('.ct-job-progress__elapsed')).toHaveProperty('textContent', 'Elapsed: 0:03')
    first.unmount()

    render(page())
    await advance(1_000)
    expect(document.querySelector('.ct-job-progress__elapsed')).toHaveProperty('textContent', 'Elapsed: 0:04')
  })
})
