// The widget's tag has a name of its own (`tag`; `scope` names a key's permission): two widgets of
// one tool resume only their own runs, and a run journaled by 0.1 under `scope` is still found.
import { act, render, screen } from '@testing-library/react'
import { useEffect } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { RecentRuns } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider, usePdfCreate, useRuns, type Run } from '../src/react/index.js'
import { advance, useFakeClock } from './support/clock.js'
import { setupMockService } from './support/service.js'

const { service } = setupMockService({ jobDurationMs: 10_000 })
beforeEach(useFakeClock)
afterEach(() => {
  vi.useRealTimers()
  localStorage.clear()
})

const latest: Record<string, ReturnType<typeof usePdfCreate>> = {}
function PdfRunner({ tag }: { tag: string }) {
  const state = usePdfCreate({ tag })
  useEffect(() => {
    latest[tag] = state
  })
  return <p data-testid={tag}>{`${state.phase} ${state.job?.jobId ?? '-'}`}</p>
}

function Listed({ tag }: { tag: string }) {
  const { runs } = useRuns({ tag })
  return <p data-testid={`runs-${tag}`}>{runs.length}</p>
}

const page = (...children: React.ReactNode[]) => (
  <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo}>
    {children}
  </ToolsProvider>
)

describe('useTool(tool, { tag })', () => {
  it('resumes only the runs of its own tag; useRuns and <RecentRuns> list by tag', async () => {
    const first = render(page(<PdfRunner key="l" tag="left" />))
    act(() => latest.left!.run({ objectId: 'obj_demo' }))
    await advance(500)
    first.unmount()
    render(page(<PdfRunner key="r" tag="right" />, <PdfRunner key="l" tag="left" />, <Listed key="lr" tag="right" />, <Listed key="ll" tag="left" />, <RecentRuns key="rr" tag="right" />))
    await advance(500)
    expect(screen.getByTestId('right').textContent).toBe('idle -')
    expect(screen.getByTestId('left').textContent).toMatch(/^(pending|running) job_/)
    expect(screen.getByTestId('runs-right').textContent).toBe('0')
    expect(screen.getByTestId('runs-left').textContent).toBe('1')
    expect(JSON.parse(localStorage.getItem(localStorage.key(0)!)!)).toMatchObject({ tag: 'left' })
    expect(service.bills()).toBe(1)
  })

  it('finds a run journaled by 0.1 under `scope` as its tag', async () => {
    const first = render(page(<PdfRunner key="l" tag="left" />))
    act(() => latest.left!.run({ objectId: 'obj_demo' }))
    await advance(500)
    first.unmount()
    // The same run as 0.1 wrote it: its widget's tag in `scope`.
    const key = localStorage.key(0)!
    const { tag, ...run } = JSON.parse(localStorage.getItem(key)!) as Run
    localStorage.setItem(key, JSON.stringify({ ...run, scope: tag }))

    render(page(<PdfRunner key="r" tag="right" />, <PdfRunner key="l" tag="left" />, <Listed key="ll" tag="left" />))
    await advance(500)
    expect(screen.getByTestId('left').textContent).toMatch(/^(pending|running) job_/)
    expect(screen.getByTestId('right').textContent).toBe('idle -')
    expect(screen.getByTestId('runs-left').textContent).toBe('1')
    expect(service.bills()).toBe(1)
  })
})
