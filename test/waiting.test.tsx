import '@testing-library/jest-dom/vitest'
import { focusManager, onlineManager } from '@tanstack/react-query'
import { act, fireEvent, render, within } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { JobProgress, ToolRunner, UploadForm } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/react/index.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { fastClient, pngFile, setupMockService } from './support/service.js'
import { loadUploadForm } from '../src/components/UploadForm.js'
import { loadChunks } from './support/clock.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as a page shown before would have.
beforeAll(() => loadUploadForm())

const { service } = setupMockService({ jobDurationMs: 2000 })
stubObjectUrls()
// The kit's chunks load in real time, which fake timers never advance: load them first.
beforeAll(() => loadChunks())

beforeEach(() => {
  vi.useFakeTimers()
  // Each test is one tab: no pause heard from another test's clients.
  vi.stubGlobal('BroadcastChannel', undefined)
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  onlineManager.setOnline(true)
  focusManager.setFocused(undefined)
})

function Provider({ children }: { children?: ReactNode }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} pollInterval={600}>
      {children}
    </ToolsProvider>
  )
}

const tick = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms))
const notice = (container: HTMLElement) => container.querySelector<HTMLElement>('.ct-wait-notice')!
const polls = () => service.log.filter((entry) => entry.kind === 'poll')
/** Moves the clock on in tenths of a second until the wait notice shows a wait: within a second. */
async function untilWaitShown(container: HTMLElement) {
  for (let ms = 0; ms < 1000 && !notice(container).hasAttribute('data-reason'); ms += 100) await tick(100)
}

/** Every text the wait's live region takes, in order: each entry is one thing a screen reader hears. */
function announcements(container: HTMLElement): string[] {
  const region = notice(container).querySelector('[aria-live="polite"]')!
  const heard: string[] = []
  new MutationObserver(() => {
    if (region.textContent) heard.push(region.textContent)
  }).observe(region, { childList: true, characterData: true, subtree: true })
  return heard
}

describe('each wait is visible within a second of starting', () => {
  it('a rate limit, with a live countdown, announced once', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 5000 })
    const { container } = render(<ToolRunner tool="valuation/express" />, { wrapper: Provider })
    const heard = announcements(container)
    fireEvent.click(within(container).getByRole('button', { name: 'Run' }))
    await untilWaitShown(container)
    expect(notice(container)).toHaveAttribute('data-reason', 'rate-limit')
    expect(notice(container)).toHaveTextContent(/busy.*Continuing in 0:05/)
    const first = notice(container).textContent
    // The first second lasts up to the pacer's jitter (half a second) longer than the others.
    await tick(1500)
    expect(notice(container).textContent).not.toBe(first)
    await tick(5000)
    expect(container.querySelector('.ct-tool-runner')).toHaveAttribute('data-state', 'succeeded')
    expect(notice(container)).not.toHaveAttribute('data-reason')
    expect(heard).toEqual(['The service is busy: your request waits its turn.'])
  })

  it("a rate limit's countdown starts at its Retry-After (0:05 for 5 s, never more), however long the page was open, and the run goes on when it ends, not before", async () => {
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 5000 })
    const { container } = render(<ToolRunner tool="valuation/express" />, { wrapper: Provider })
    // The page was open a while before the press: the countdown is not counted from then.
    await tick(3000)
    const shown: string[] = []
    new MutationObserver(() => {
      const time = notice(container).querySelector('.ct-wait-notice__time')?.textContent?.trim()
      if (time && time !== shown.at(-1)) shown.push(time)
    }).observe(notice(container), { childList: true, characterData: true, subtree: true })
    fireEvent.click(within(container).getByRole('button', { name: 'Run' }))
    await untilWaitShown(container)
    expect(notice(container)).toHaveAttribute('data-reason', 'rate-limit')
    expect(notice(container)).toHaveTextContent('Continuing in 0:05')
    const refusedAt = service.log.find((entry) => entry.status === 429)!.at
    // Each second shown as it passes (the count runs to the pause's end: its Retry-After and the pacer's jitter).
    while (Date.now() < refusedAt + 4900) await tick(100)
    await tick(refusedAt + 4999 - Date.now())
    expect(notice(container)).toHaveAttribute('data-reason', 'rate-limit')
    expect(service.log.filter((entry) => entry.kind === 'call')).toHaveLength(1)
    // The pacer's jitter: up to half a second more before the call goes again.
    await tick(501)
    expect(notice(container)).not.toHaveAttribute('data-reason')
    expect(service.log.filter((entry) => entry.kind === 'call')[1]!.at).toBeGreaterThanOrEqual(refusedAt + 5000)
    expect(shown).toEqual(['Continuing in 0:05', 'Continuing in 0:04', 'Continuing in 0:03', 'Continuing in 0:02', 'Continuing in 0:01'])
  })

  it('retries after service errors, with the attempt', async () => {
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 2 })
    const { container } = render(<ToolRunner tool="text/generate" />, { wrapper: Provider })
    fireEvent.click(within(container).getByRole('button', { name: 'Run' }))
    // The first read fails at 200 ms; retries follow 250–500 ms, then 500–1000 ms later.
    await tick(600)
    expect(notice(container)).toHaveAttribute('data-reason', 'retrying')
    expect(notice(container)).toHaveTextContent(/trying again.*Attempt [12]/)
    await tick(5000)
    expect(container.querySelector('.ct-tool-runner')).toHaveAttribute('data-state', 'succeeded')
  })

  it('offline, and the run goes on when the connection returns', async () => {
    onlineManager.setOnline(false)
    const { container } = render(<ToolRunner tool="valuation/express" />, { wrapper: Provider })
    fireEvent.click(within(container).getByRole('button', { name: 'Run' }))
    await tick(1000)
    expect(notice(container)).toHaveAttribute('data-reason', 'offline')
    expect(notice(container)).toHaveTextContent('No connection')
    expect(service.log).toHaveLength(0)
    onlineManager.setOnline(true)
    await tick(100)
    expect(container.querySelector('.ct-tool-runner')).toHaveAttribute('data-state', 'succeeded')
    expect(service.bills()).toBe(1)
  })

  it('in the upload form', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 3000 })
    const { container } = render(<UploadForm tool="photo/enhance" />, { wrapper: Provider })
    fireEvent.change(container.querySelector('input[type="file"]')!, { target: { files: [pngFile()] } })
    await tick(0)
    fireEvent.click(within(container).getByRole('button', { name: 'Run' }))
    await tick(1000)
    expect(notice(container)).toHaveAttribute('data-reason', 'rate-limit')
    await tick(4000)
    expect(service.bills()).toBe(1)
  })

  it('in the progress of a job followed by id', async () => {
    const { jobId } = await fastClient(MOCK_KEYS.demo).start('pdf/create', { objectId: 'obj_demo' })
    service.inject({ match: { kind: 'poll' }, fault: 'rate-limit', retryAfterMs: 3000 })
    const { container } = render(<JobProgress tool="pdf/create" jobId={jobId} />, { wrapper: Provider })
    await tick(1000)
    expect(notice(container)).toHaveAttribute('data-reason', 'rate-limit')
    expect(notice(container)).toHaveTextContent(/Continuing in 0:0[23]/)
    await tick(5000)
    expect(container.querySelector('.ct-job-progress')).toHaveAttribute('data-state', 'succeeded')
    expect(notice(container)).not.toHaveAttribute('data-reason')
  })
})

describe('polling in a page', () => {
  it('polls at most once in 30 s while hidden, and at once when shown again', async () => {
    const { jobId } = await fastClient(MOCK_KEYS.demo).start('pdf/create', { objectId: 'obj_demo' })
    service.freezeJobs()
    focusManager.setFocused(false)
    render(<JobProgress tool="pdf/create" jobId={jobId} />, { wrapper: Provider })
    await tick(5 * 60_000)
    const hidden = polls().map((entry) => entry.at)
    expect(hidden.length).toBeLessThanOrEqual(11)
    for (let i = 1; i < hidden.length; i++) expect(hidden[i]! - hidden[i - 1]!).toBeGreaterThanOrEqual(30_000)
    focusManager.setFocused(true)
    await tick(10)
    expect(polls()).toHaveLength(hidden.length + 1)
  })
})
