import '@testing-library/jest-dom/vitest'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { useEffect, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RecentRuns } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import {
  defaultInterpretation,
  ToolsProvider,
  usePdfCreate,
  usePhotoEnhance,
  useRuns,
  type JournalStore,
  type Run,
} from '../src/react/index.js'
import { advance, useFakeClock } from './support/clock.js'
import { setupMockService } from './support/service.js'

const { service } = setupMockService({ jobDurationMs: 10_000 })
beforeEach(useFakeClock)
afterEach(() => vi.useRealTimers())

const posts = () => service.log.filter((entry) => entry.kind === 'call')
const stored = () => Object.keys(localStorage).map((key) => `${key}=${localStorage.getItem(key)}`)

function Provider({ journal, children }: { journal?: JournalStore | false; children?: ReactNode }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} journal={journal}>
      {children}
    </ToolsProvider>
  )
}

const latest: { pdf?: ReturnType<typeof usePdfCreate> } = {}
function PdfRunner({ scope }: { scope?: string }) {
  const state = usePdfCreate({ scope })
  useEffect(() => {
    latest.pdf = state
  })
  return <p data-testid={`pdf-${scope ?? ''}`}>{`${state.phase} ${state.job?.jobId ?? '-'}`}</p>
}


describe('the journal', () => {
  it('keeps neither the key nor a file’s bytes, only what finds the job again', async () => {
    // A real PNG followed by a marker, to find its bytes anywhere they might be copied.
    const png = Uint8Array.from(
      atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
      (char) => char.charCodeAt(0),
    )
    const file = new File([png, 'FILE-BYTES-MARKER'], 'room.png', { type: 'image/png' })
    let photo: ReturnType<typeof usePhotoEnhance> | undefined
    function PhotoRunner() {
      const state = usePhotoEnhance()
      useEffect(() => {
        photo = state
      })
      return null
    }
    render(
      <Provider>
        <PhotoRunner />
      </Provider>,
    )
    act(() => photo!.run({ file, mode: 'auto' }))
    await advance(500)

    const entries = stored()
    expect(entries).toHaveLength(1)
    const run = JSON.parse(localStorage.getItem(Object.keys(localStorage)[0]!)!) as Run
    expect(run).toMatchObject({
      tool: 'photo/enhance',
      input: { mode: 'auto' },
      file: { name: 'room.png', type: 'image/png', size: file.size },
      idempotencyKey: posts()[0]!.idempotencyKey,
      jobId: expect.stringMatching(/^job_/),
    })
    for (const entry of entries) {
      expect(entry).not.toContain(MOCK_KEYS.demo)
      expect(entry).not.toContain('FILE-BYTES-MARKER')
      expect(entry).not.toContain('iVBORw0KGgo')
    }
  })

  it('journal={false} keeps nothing, so nothing is resumed', async () => {
    const first = render(
      <Provider journal={false}>
        <PdfRunner />
      </Provider>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(500)
    expect(localStorage.length).toBe(0)
    first.unmount()
    render(
      <Provider journal={false}>
        <PdfRunner />
      </Provider>,
    )
    await advance(500)
    expect(screen.getByTestId('pdf-').textContent).toBe('idle -')
  })

  it('takes any store, even an async one, and resumes from it on a fresh provider', async () => {
    const map = new Map<string, Run>()
    const store: JournalStore = {
      get: async (key) => map.get(key),
      set: async (key, run) => void map.set(key, run),
      remove: async (key) => void map.delete(key),
      keys: async () => [...map.keys()],
    }
    const first = render(
      <Provider journal={store}>
        <PdfRunner />
      </Provider>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(500)
    const jobId = latest.pdf!.job?.jobId
    expect(jobId).toMatch(/^job_/)
    expect(map.size).toBe(1)
    expect(localStorage.length).toBe(0)
    first.unmount()

    render(
      <Provider journal={store}>
        <PdfRunner />
      </Provider>,
    )
    await advance(15_000)
    expect(screen.getByTestId('pdf-').textContent).toBe(`succeeded ${jobId}`)
    expect(service.bills()).toBe(1)
  })

  it('a scope resumes only its own runs', async () => {
    const first = render(
      <Provider>
        <PdfRunner scope="left" />
      </Provider>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(500)
    first.unmount()
    render(
      <Provider>
        <PdfRunner scope="right" />
        <PdfRunner scope="left" />
      </Provider>,
    )
    await advance(500)
    expect(screen.getByTestId('pdf-right').textContent).toBe('idle -')
    expect(screen.getByTestId('pdf-left').textContent).toMatch(/^(pending|running) job_/)
  })
})

describe('useRuns and <RecentRuns />', () => {
  it('lists runs newest first, shows one live, and dismisses it', async () => {
    function Runs() {
      const { runs } = useRuns({ tool: 'pdf/create' })
      return <p data-testid="runs">{runs.map((run) => run.input.language).join(',')}</p>
    }
    render(
      <Provider>
        <PdfRunner />
        <Runs />
        <RecentRuns />
      </Provider>,
    )
    act(() => latest.pdf!.run({ objectId: 'obj_demo', language: 'en' }))
    await advance(14_000)
    act(() => latest.pdf!.run({ objectId: 'obj_demo', language: 'de' }))
    await advance(500)
    expect(screen.getByTestId('runs').textContent).toBe('de,en')

    const list = screen.getByRole('region', { name: 'Recent runs' })
    const items = within(list).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[1]).toHaveTextContent('Done')
    // Title, status and time apart: a pause between each for a screen reader, a dot for the eye.
    const title = items[1]!.querySelector('.ct-recent-runs__title')!
    const heard = title.cloneNode(true) as HTMLElement
    heard.querySelectorAll('[aria-hidden="true"]').forEach((node) => node.remove())
    expect(heard.textContent).toMatch(/^[^,]+, Done, Elapsed: \d+:\d\d$/)
    expect(title.querySelectorAll('[aria-hidden="true"]')).toHaveLength(2)
    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Show' }))
    await advance(500)
    expect(within(items[1]!).getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true')
    expect(within(items[1]!).getByRole('list', { name: 'Files' })).toBeTruthy()

    fireEvent.click(within(items[1]!).getByRole('button', { name: 'Dismiss' }))
    await advance(100)
    expect(screen.getByTestId('runs').textContent).toBe('de')
  })
})

describe('statuses the spec does not name', () => {
  it('reads the usual failure words as failed', () => {
    for (const word of ['cancelled', 'canceled', 'error', 'expired', 'FAILED']) {
      expect(defaultInterpretation.phase(word)).toBe('failed')
    }
    expect(defaultInterpretation.phase('processing')).toBe('running')
  })
})
