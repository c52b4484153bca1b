import '@testing-library/jest-dom/vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createRef, version, type ReactNode } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  ArtifactViewer,
  ErrorNotice,
  FieldError,
  FileDrop,
  JobProgress,
  RecentRuns,
  ResultView,
  ToolRunner,
  ToolsError,
  UploadForm,
  WaitNotice,
  type Job,
  type Result,
} from '../src/components/index.js'
import { ru } from '../src/entries/locales/ru.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/react/index.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { fakeClock } from './support/clock.js'
import { setupMockService } from './support/service.js'
import { loadUploadForm } from '../src/components/UploadForm.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as a page shown before would have.
beforeAll(() => loadUploadForm())

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

describe(`component roots on React ${version}`, () => {
  // React 18 drops a ref given to a plain function component, and says so on the console.
  const consoleError = vi.spyOn(console, 'error')
  beforeEach(() => consoleError.mockClear())
  afterEach(() => expect(consoleError.mock.calls.flat().join('\n')).not.toMatch(/cannot be given refs/i))

  it.each([
    ['ToolRunner', (props: object) => <ToolRunner tool="valuation/rent" {...props} />],
    ['UploadForm', (props: object) => <UploadForm tool="photo/enhance" {...props} />],
    ['JobProgress', (props: object) => <JobProgress job={job} {...props} />],
    ['ResultView', (props: object) => <ResultView result={result({ rent: 1 })} {...props} />],
    ['ArtifactViewer', (props: object) => <ArtifactViewer url={`${MOCK_BASE_URL}/artifacts/x/y.png`} {...props} />],
    ['ErrorNotice', (props: object) => <ErrorNotice error={new ToolsError('network', 'offline')} {...props} />],
    ['RecentRuns', (props: object) => <RecentRuns {...props} />],
    ['WaitNotice', (props: object) => <WaitNotice waiting={{ reason: 'offline' }} {...props} />],
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
    // The component's own state (where it has one) is not overridden by the caller's attributes.
    if (!['ResultView', 'ErrorNotice', 'RecentRuns', 'WaitNotice'].includes(name)) expect(root).toHaveAttribute('data-state')
    expect(ref.current).toBe(root)
  })

  it('the parts take a ref too: FileDrop, FieldError', () => {
    const drop = createRef<HTMLDivElement>()
    const problem = createRef<HTMLParagraphElement>()
    const error = new ToolsError('validation', 'bad', { issues: [{ field: 'city', code: 'required', message: 'Required' }] })
    render(
      <>
        <FileDrop ref={drop} file={null} onFileChange={() => undefined} />
        <FieldError ref={problem} error={error} field="city" id="city-error" />
      </>,
      { wrapper: Provider },
    )
    expect(drop.current).toHaveClass('ct-file-drop')
    expect(problem.current).toHaveAttribute('id', 'city-error')
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

describe('<ResultView> file links', () => {
  const file = 'http://localhost:3000/api/tools/artifacts/WyIv/listing.pdf'
  it('a link written root-relative (as a proxy writes it) is the file, not a row', () => {
    const { container } = render(
      <ResultView
        result={result(
          { url: '/api/tools/artifacts/WyIv/listing.pdf', files: [{ name: 'plan', url: '/api/tools/artifacts/WyIv/listing.pdf' }], language: 'en' },
          [file],
        )}
        renderArtifact={(url) => <a href={url}>the file</a>}
      />,
      { wrapper: Provider },
    )
    const fields = container.querySelector('.ct-result__fields')!
    expect(fields).not.toHaveTextContent(/Url|artifacts/)
    expect(fields).toHaveTextContent('plan')
    expect(screen.getByRole('link', { name: 'the file' })).toHaveAttribute('href', file)
  })

  it('a path that only looks alike, or any other text, stays a value', () => {
    render(<ResultView result={result({ note: '/api/tools/artifacts/other.pdf', slug: 'listing.pdf' }, [file])} />, { wrapper: Provider })
    expect(screen.getByText('/api/tools/artifacts/other.pdf')).toBeInTheDocument()
    expect(screen.getByText('listing.pdf')).toBeInTheDocument()
  })
})

describe('<ResultView> labels', () => {
  it('are in the messages’ language: result fields from the locale, input fields by their labels', () => {
    render(
      <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} messages={ru}>
        <ResultView result={result({ rent: { monthly: 820, currency: 'EUR' }, pricePerSquareMetre: 15.1, city: 'Kazan', totalArea: 54, somethingNew: 1 })} />
      </ToolsProvider>,
    )
    const labels = [...document.querySelectorAll('dt')].map((label) => label.textContent)
    expect(labels).toEqual(['Аренда', 'В месяц', 'Валюта', 'Цена за м²', 'Город', 'Общая площадь, м²', 'Something new'])
  })
})

describe('<JobProgress> on a queued job', () => {
  it('shows no "0% complete": a bar without a value, as nothing has been done yet', () => {
    render(<JobProgress job={{ ...job, status: 'pending', phase: 'pending', progress: 0 }} />, { wrapper: Provider })
    expect(screen.getByRole('progressbar')).toHaveAttribute('data-state', 'indeterminate')
    expect(document.body).not.toHaveTextContent(/0\s?%/)
  })
})

describe('<RecentRuns>', () => {
  it('has no heading of its own: the page titles it, and names the list by that title', () => {
    render(
      <>
        <h2 id="runs-title">Your runs</h2>
        <RecentRuns aria-labelledby="runs-title" />
      </>,
      { wrapper: Provider },
    )
    expect(screen.getAllByRole('heading')).toHaveLength(1)
    expect(screen.getByRole('region', { name: 'Your runs' })).toBeInTheDocument()
  })

  it('is named "Recent runs" when the page gives no name, and says where runs will appear while there are none', () => {
    render(<RecentRuns />, { wrapper: Provider })
    expect(screen.queryByRole('heading')).toBeNull()
    const region = screen.getByRole('region', { name: 'Recent runs' })
    expect(region).toHaveTextContent('No runs yet. Runs of tools that work as a job (they take a while) are listed here as they start, and stay after a reload; tools that answer at once are not listed.')
    expect(region.querySelector('.ct-recent-runs__empty')).not.toBeNull()
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

describe('<ToolRunner heading>', () => {
  it('titles the tool at the level given, or leaves the title to the page and names the section by it', () => {
    const { unmount } = render(<ToolRunner tool="valuation/rent" heading={3} />, { wrapper: Provider })
    expect(screen.getByRole('heading', { level: 3, name: 'Rent estimate' })).toBeInTheDocument()
    unmount()
    render(
      <>
        <h1>Rent estimate</h1>
        <ToolRunner tool="valuation/rent" heading={false} />
      </>,
      { wrapper: Provider },
    )
    expect(screen.getAllByText('Rent estimate')).toHaveLength(1)
    expect(screen.getByRole('region', { name: 'Rent estimate' })).toBeInTheDocument()
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
