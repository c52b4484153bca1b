import '@testing-library/jest-dom/vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRef, type ReactNode } from 'react'
import { describe, expect, it } from 'vitest'
import { ArtifactViewer, JobProgress, ResultView, ToolRunner, UploadForm, type Job, type Result } from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/react/index.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { fakeClock } from './support/clock.js'
import { setupMockService } from './support/service.js'

const { service, server } = setupMockService()
const { until, drive } = fakeClock(server)
stubObjectUrls()

function Provider({ children }: { children?: ReactNode }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} pollInterval={10}>
      {children}
    </ToolsProvider>
  )
}

const job: Job = { tool: 'pdf/create', jobId: 'job_1', status: 'processing', phase: 'running', data: {}, artifacts: [] }
const result = (data: unknown, artifacts: string[] = []): Result<'valuation/rent'> => ({ tool: 'valuation/rent', data, artifacts })

describe('component roots', () => {
  it.each([
    ['ToolRunner', (props: object) => <ToolRunner tool="valuation/rent" {...props} />],
    ['UploadForm', (props: object) => <UploadForm tool="photo/enhance" {...props} />],
    ['JobProgress', (props: object) => <JobProgress job={job} {...props} />],
    ['ResultView', (props: object) => <ResultView result={result({ rent: 1 })} {...props} />],
    ['ArtifactViewer', (props: object) => <ArtifactViewer url={`${MOCK_BASE_URL}/artifacts/x/y.png`} {...props} />],
  ])('%s passes id, style, aria-*, data-* and className through, and takes a ref', (name, make) => {
    const ref = createRef<HTMLElement>()
    const { container } = render(
      make({ ref, id: 'mine', style: { maxWidth: 300 }, 'aria-describedby': 'help', 'data-testid': 'root', className: 'extra' }),
      { wrapper: Provider },
    )
    const root = screen.getByTestId('root')
    expect(root).toBe(container.firstElementChild)
    expect(root).toHaveAttribute('id', 'mine')
    expect(root).toHaveStyle({ maxWidth: '300px' })
    expect(root).toHaveAttribute('aria-describedby', 'help')
    expect(root.className).toMatch(/^ct-[a-z-]+ extra$/)
    // The component's own state (a finished result has none) is not overridden by the caller's attributes.
    if (name !== 'ResultView') expect(root).toHaveAttribute('data-state')
    expect(ref.current).toBe(root)
  })

  it('a job progress bar says whether it knows how far the job is', () => {
    const { rerender } = render(<JobProgress job={job} />, { wrapper: Provider })
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-state', 'indeterminate')
    rerender(<JobProgress job={{ ...job, progress: 0.5 }} />)
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-state', 'determinate')
  })
})

describe('<ResultView>', () => {
  it('shows an answer nested 1,500 levels deep without breaking: the deep rest as text', () => {
    let deep: unknown = 'bottom'
    for (let level = 0; level < 1500; level++) deep = { level: deep }
    const { container } = render(<ResultView result={result({ rent: 42_000, deep })} />, { wrapper: Provider })
    expect(container).toHaveTextContent('Rent')
    expect(container).toHaveTextContent('42,000')
    const text = container.querySelector('.ct-result__text')!
    expect(text.textContent).toMatch(/^\{"level":/)
    expect(container.querySelectorAll('dl').length).toBeLessThan(12)
  })

  it('an array of result links only shows no empty item: the files are shown below', () => {
    const links = [`${MOCK_BASE_URL}/artifacts/a/one.png`, `${MOCK_BASE_URL}/artifacts/b/two.png`]
    const { container } = render(
      <ResultView result={result({ images: links, mixed: [links[0], 'a note'], rent: 1 }, links)} renderArtifact={(url) => <a href={url}>{url}</a>} />,
      { wrapper: Provider },
    )
    expect(container.querySelectorAll('li:empty')).toHaveLength(0)
    expect(container).not.toHaveTextContent('Images')
    const mixed = within(container.querySelector('dl')!).getByText('Mixed').nextElementSibling!
    expect(mixed.querySelectorAll('li')).toHaveLength(1)
    expect(mixed).toHaveTextContent('a note')
  })

  it('renders each file through renderArtifact when given', () => {
    const links = [`${MOCK_BASE_URL}/artifacts/a/one.png`]
    render(<ResultView result={result({}, links)} renderArtifact={(url) => <a href={url}>my viewer</a>} />, {
      wrapper: Provider,
    })
    expect(screen.getByRole('link', { name: 'my viewer' })).toHaveAttribute('href', links[0])
    expect(document.querySelector('.ct-artifact-viewer')).toBeNull()
  })
})

describe('<JobProgress renderArtifact>', () => {
  it('renders the finished job’s files through the slot', () => {
    const url = `${MOCK_BASE_URL}/artifacts/a/brochure.pdf`
    render(<JobProgress job={{ ...job, status: 'completed', phase: 'succeeded', artifacts: [url] }} renderArtifact={(link) => <a href={link}>get it</a>} />, {
      wrapper: Provider,
    })
    expect(screen.getByRole('link', { name: 'get it' })).toHaveAttribute('href', url)
  })
})

describe('<ToolRunner maxSize accept>', () => {
  it('passes the file limits to its upload field', async () => {
    const { container } = render(<ToolRunner tool="video/create" maxSize={100} accept={{ 'video/mp4': ['.mp4'] }} />, {
      wrapper: Provider,
    })
    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!
    expect(input.accept).toBe('video/mp4,.mp4')
    await drive(userEvent.upload(input, new File([new Uint8Array(500)], 'tour.mp4', { type: 'video/mp4' })))
    expect(await until(() => screen.getByRole('alert'))).toHaveTextContent('“tour.mp4” is larger than 100 bytes.')
    expect(service.log).toHaveLength(0)
  })
})
