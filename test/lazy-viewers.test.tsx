import '@testing-library/jest-dom/vitest'
import { act, render, screen, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { renderToString } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { ArtifactViewer, JobProgress, ResultView } from '../src/components/index.js'
import { loadViewers } from '../src/components/RunOutcome.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider, type Job, type Result } from '../src/react/index.js'

// The result card's code, a chunk of its own, as the network serves it: offline until told otherwise.
const network = vi.hoisted(() => ({ online: false }))
vi.mock('../src/components/ResultBody.js', async (importOriginal) => {
  const chunk = await importOriginal<typeof import('../src/components/ResultBody.js')>()
  return {
    ...chunk,
    get ResultBody() {
      if (!network.online) throw new TypeError('Failed to fetch dynamically imported module')
      return chunk.ResultBody
    },
  }
})

function Provider({ children }: { children?: ReactNode }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} journal={false}>
      {children}
    </ToolsProvider>
  )
}

const result: Result<'valuation/rent'> = { tool: 'valuation/rent', data: { monthlyRent: 52000 }, artifacts: [] }
const job: Job = { tool: 'pdf/create', jobId: 'job_1', status: 'processing', phase: 'running', data: {}, artifacts: [] }

describe('the result viewers, each a chunk of its own', () => {
  it('show a result once its viewer comes; offline, a card that says it waits for the connection, until it is back', async () => {
    const { container } = render(
      <Provider>
        <ResultView result={result} />
      </Provider>,
    )
    const card = screen.getByRole('region', { name: 'Rent estimate: result' })
    expect(card).toHaveTextContent('Result')
    await waitFor(() => expect(card).toHaveTextContent('No connection: the request goes on when you are back online.'))
    expect(card).not.toHaveAttribute('aria-busy')
    expect(container).not.toHaveTextContent('52,000')

    network.online = true
    act(() => void window.dispatchEvent(new Event('online')))
    await waitFor(() => expect(screen.getByRole('region', { name: 'Rent estimate: result' })).toHaveTextContent('52,000'))
    expect(container).not.toHaveTextContent('No connection')
  })

  it('render a stand-in on a server, with no crash, and hydrate to the viewers once their chunks have come', async () => {
    await loadViewers()
    const page = (
      <Provider>
        <ResultView result={result} />
        <JobProgress job={job} />
        <ArtifactViewer url={`${MOCK_BASE_URL}/artifacts/a1/plan.png`} />
      </Provider>
    )
    // Code already loaded or not, a server sends the stand-ins: what the browser hydrates.
    const html = renderToString(page)
    expect(html).toContain('aria-label="Rent estimate: result"')
    expect(html).toContain('PDF brochure')
    expect(html).toContain('Loading the file…')
    expect(html.match(/aria-busy="true"/g)).toHaveLength(3)
    expect(html).not.toContain('52,000')

    const container = document.createElement('div')
    container.innerHTML = html
    document.body.append(container)
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const root = await act(async () => hydrateRoot(container, page))
    await waitFor(() => expect(container).toHaveTextContent('52,000'))
    expect(container.querySelector('.ct-job-progress')).toHaveAttribute('data-state', 'running')
    expect(errors).not.toHaveBeenCalled()
    errors.mockRestore()
    act(() => root.unmount())
    container.remove()
  })
})
