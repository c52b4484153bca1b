import '@testing-library/jest-dom/vitest'
import { act, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { JobProgress } from '../src/components/index.js'
import { exampleInput, MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider, type DeferredToolId, type Job } from '../src/react/index.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { fakeClock } from './support/clock.js'
import { fastClient, setupMockService } from './support/service.js'

// Long enough to see the job queued (first third) and running, short enough for a quick suite.
const { service, server } = setupMockService({ jobDurationMs: 300 })
const POLL = 10
const { advance, until, drive } = fakeClock(server)

stubObjectUrls()

function Provider({ apiKey = MOCK_KEYS.demo, children }: { apiKey?: string; children?: ReactNode }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={apiKey} pollInterval={POLL}>
      {children}
    </ToolsProvider>
  )
}

async function startJob(tool: DeferredToolId = 'pdf/create') {
  const handle = await fastClient(MOCK_KEYS.demo).start(tool, exampleInput(tool) as never)
  return handle.jobId
}

const card = (container: HTMLElement) => container.querySelector<HTMLElement>('.ct-job-progress')!
const liveRegion = (container: HTMLElement) => container.querySelector<HTMLElement>('[aria-live="polite"]')!

/** Every text the live region takes, in order: each entry is one thing a screen reader hears. */
function recordAnnouncements(region: HTMLElement): string[] {
  const heard: string[] = []
  const observer = new MutationObserver(() => heard.push(region.textContent ?? ''))
  observer.observe(region, { childList: true, characterData: true, subtree: true })
  return heard
}

const job = (overrides: Partial<Job> = {}): Job => ({
  tool: 'video/create',
  jobId: 'job_1',
  status: 'processing',
  phase: 'running',
  data: {},
  artifacts: [],
  ...overrides,
})

describe('<JobProgress tool jobId>', () => {
  it('follows a job from queued to finished, then shows its file', async () => {
    const jobId = await startJob('pdf/create')
    const { container } = render(
      <Provider>
        <JobProgress tool="pdf/create" jobId={jobId} />
      </Provider>,
    )
    expect(card(container)).toHaveAttribute('data-state', 'checking')
    expect(card(container)).toHaveTextContent('PDF brochure')
    expect(card(container)).toHaveTextContent('Checking the job…')
    const heard = recordAnnouncements(liveRegion(container))

    await until(() => expect(card(container)).toHaveAttribute('data-state', 'pending'))
    expect(card(container)).toHaveTextContent('Queued')
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'running'))
    // The phase, and the service's own word for it, small.
    expect(card(container)).toHaveTextContent('In progress (processing)')
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'succeeded'))
    expect(card(container)).toHaveTextContent('Done')

    const viewer = within(card(container)).getByRole('list', { name: 'Files' })
    await until(() => expect(viewer.querySelector('.ct-artifact-viewer')).toHaveAttribute('data-state', 'ready'))
    expect(viewer.querySelector('.ct-artifact-viewer')).toHaveAttribute('data-kind', 'pdf')
    expect(within(viewer).getByRole('link', { name: /Download/ })).toBeInTheDocument()

    // Many polls, one announcement per phase, and the end said exactly once.
    expect(heard).toEqual(['Job queued.', 'Job running.', 'Job finished.'])
    const reads = service.log.length
    await advance(10 * POLL)
    // Finished means finished: no read after the end, and nothing more said.
    expect(service.log).toHaveLength(reads)
    expect(heard.filter((text) => text === 'Job finished.')).toHaveLength(1)
    expect(liveRegion(container)).toHaveClass('ct-visually-hidden')
  })

  it('gives the bar a value once the service reports progress, and fills it at the end', async () => {
    const jobId = await startJob('video/create')
    const { container } = render(
      <Provider>
        <JobProgress tool="video/create" jobId={jobId} />
      </Provider>,
    )
    const bar = () => screen.getByRole('progressbar', { name: 'Job progress' })
    // Before the first read nothing is known: indeterminate.
    expect(bar()).not.toHaveAttribute('aria-valuenow')
    expect(bar()).not.toHaveAttribute('value')
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'running'))
    await until(() => expect(Number(bar().getAttribute('aria-valuenow'))).toBeGreaterThan(0))
    expect(bar().getAttribute('aria-valuetext')).toMatch(/^\d+% complete$/)
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'succeeded'))
    expect(bar()).toHaveAttribute('aria-valuenow', '100')
  })

  it('says a job of another key was not found', async () => {
    const jobId = await startJob()
    const { container } = render(
      <Provider apiKey={MOCK_KEYS.other}>
        <JobProgress tool="pdf/create" jobId={jobId} />
      </Provider>,
    )
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'not-found'))
    expect(screen.getByRole('alert')).toHaveTextContent('Job not found: it may belong to another API key.')
    expect(screen.queryByRole('progressbar')).toBeNull()
  })

  it('explains a failed job, announces the failure and offers the caller’s retry', async () => {
    service.setOutcome('failed')
    const jobId = await startJob('avatar/video')
    const onRetry = vi.fn()
    const { container } = render(
      <Provider>
        <JobProgress tool="avatar/video" jobId={jobId} onRetry={onRetry} />
      </Provider>,
    )
    const heard = recordAnnouncements(liveRegion(container))
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'failed'))
    const notice = screen.getByRole('alert')
    expect(notice).toHaveAttribute('data-kind', 'job-failed')
    expect(notice).toHaveTextContent('The job failed')
    expect(card(container)).toHaveTextContent('Failed')
    expect(heard.at(-1)).toBe('Job failed.')
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(container.querySelector('.ct-artifact-viewer')).toBeNull()
    await drive(userEvent.click(within(notice).getByRole('button', { name: 'Try again' })))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('shows no file list for a job that made no files', async () => {
    const jobId = await startJob('text/generate')
    const { container } = render(
      <Provider>
        <JobProgress tool="text/generate" jobId={jobId} />
      </Provider>,
    )
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'succeeded'))
    expect(screen.queryByRole('list')).toBeNull()
  })

  it('keeps the files to itself with showArtifacts={false}', async () => {
    const jobId = await startJob('photo/enhance')
    const { container } = render(
      <Provider>
        <JobProgress tool="photo/enhance" jobId={jobId} showArtifacts={false} />
      </Provider>,
    )
    await until(() => expect(card(container)).toHaveAttribute('data-state', 'succeeded'))
    expect(container.querySelector('.ct-artifact-viewer')).toBeNull()
  })
})

describe('<JobProgress job>', () => {
  it('has a bar with a value only when the job reports progress', () => {
    const { rerender } = render(
      <Provider>
        <JobProgress job={job({ progress: 0.42 })} />
      </Provider>,
    )
    const bar = screen.getByRole('progressbar', { name: 'Job progress' })
    expect(bar).toHaveAttribute('aria-valuenow', '42')
    expect(bar).toHaveAttribute('aria-valuetext', '42% complete')
    expect(screen.getByText('42% complete')).toBeInTheDocument()

    rerender(
      <Provider>
        <JobProgress job={job()} />
      </Provider>,
    )
    const indeterminate = screen.getByRole('progressbar', { name: 'Job progress' })
    expect(indeterminate).not.toHaveAttribute('aria-valuenow')
    expect(indeterminate).not.toHaveAttribute('value')
    expect(screen.queryByText(/complete$/)).toBeNull()
  })

  it('counts the elapsed time each second and stops it at the end', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    const { container, rerender } = render(
      <Provider>
        <JobProgress job={job()} />
      </Provider>,
    )
    const elapsed = () => container.querySelector('.ct-job-progress__elapsed')
    expect(elapsed()).toHaveTextContent('Elapsed: 0:00')
    act(() => vi.advanceTimersByTime(1000))
    expect(elapsed()).toHaveTextContent('Elapsed: 0:01')
    act(() => vi.advanceTimersByTime(64_000))
    expect(elapsed()).toHaveTextContent('Elapsed: 1:05')

    rerender(
      <Provider>
        <JobProgress job={job({ status: 'completed', phase: 'succeeded', progress: 1 })} showArtifacts={false} />
      </Provider>,
    )
    act(() => vi.advanceTimersByTime(10_000))
    expect(elapsed()).toHaveTextContent('Elapsed: 1:05')
  })

  it('starts the clock afresh for another job', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { container, rerender } = render(
      <Provider>
        <JobProgress job={job({ jobId: 'job_1' })} />
      </Provider>,
    )
    act(() => vi.advanceTimersByTime(5000))
    expect(container.querySelector('.ct-job-progress__elapsed')).toHaveTextContent('Elapsed: 0:05')
    rerender(
      <Provider>
        <JobProgress job={job({ jobId: 'job_2', status: 'pending', phase: 'pending' })} />
      </Provider>,
    )
    expect(container.querySelector('.ct-job-progress__elapsed')).toHaveTextContent('Elapsed: 0:00')
  })

  it('counts from startedAt when given', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { container } = render(
      <Provider>
        <JobProgress job={job()} startedAt={Date.now() - 3_725_000} />
      </Provider>,
    )
    expect(container.querySelector('.ct-job-progress__elapsed')).toHaveTextContent('Elapsed: 1:02:05')
  })

  it('shows no made-up duration for a job first seen finished', () => {
    const { container } = render(
      <Provider>
        <JobProgress job={job({ status: 'done', phase: 'succeeded' })} showArtifacts={false} />
      </Provider>,
    )
    expect(card(container)).toHaveAttribute('data-state', 'succeeded')
    expect(container.querySelector('.ct-job-progress__elapsed')).toBeNull()
  })

  it('polls nothing', async () => {
    render(
      <Provider>
        <JobProgress job={job({ tool: 'pdf/create', jobId: 'job_unknown' })} />
      </Provider>,
    )
    await advance(5 * POLL)
    expect(service.log).toHaveLength(0)
  })

  it('takes the class names it is given', () => {
    const { container } = render(
      <Provider>
        <JobProgress job={job()} className="mine" />
      </Provider>,
    )
    expect(card(container)).toHaveClass('ct-job-progress', 'mine')
  })
})

describe('<JobProgress> on a server', () => {
  it('renders to a string, polled or given', () => {
    const polled = renderToString(
      <Provider>
        <JobProgress tool="pdf/create" jobId="job_1" />
      </Provider>,
    )
    // The progress's code is a chunk the browser fetches: a server sends its stand-in, the tool and the phase as read.
    expect(polled).toContain('data-state="loading"')
    expect(polled).toContain('Checking the job…')
    const given = renderToString(
      <Provider>
        <JobProgress job={job({ progress: 0.5 })} />
      </Provider>,
    )
    expect(given).toContain('data-state="loading"')
    expect(given).toContain('In progress')
  })
})
