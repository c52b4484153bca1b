import '@testing-library/jest-dom/vitest'
import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http, HttpResponse } from 'msw'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { ArtifactViewer } from '../src/components/index.js'
import { artifactFileName } from '../src/components/artifactFile.js'
import { exampleInput, MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { TOOLS, ToolsProvider, type ToolId } from '../src/react/index.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { fakeClock } from './support/clock.js'
import { fastClient, setupMockService } from './support/service.js'

const { service, server } = setupMockService()
const { until, drive } = fakeClock(server)

stubObjectUrls()

function Provider({ apiKey = MOCK_KEYS.demo, children }: { apiKey?: string; children?: ReactNode }) {
  // A fast client: a failing download gives up in milliseconds, not seconds.
  return <ToolsProvider client={fastClient(apiKey)}>{children}</ToolsProvider>
}

/** The first result link of a real run on the mock, made with the demo key. */
async function linkOf(tool: ToolId): Promise<string> {
  const result = await drive(fastClient(MOCK_KEYS.demo).run(tool, exampleInput(tool) as never))
  return result.artifacts[0]!
}

// Loading, ready and failed are different elements: look the viewer up afresh each time.
const viewerIn = (container: HTMLElement) => container.querySelector<HTMLElement>('.ct-artifact-viewer')!

async function ready(container: HTMLElement) {
  await until(() => expect(viewerIn(container)).toHaveAttribute('data-state', 'ready'))
  return viewerIn(container)
}

describe('<ArtifactViewer>', () => {
  it('shows an enhanced photo in an <img>, with a download named after the link', async () => {
    const url = await linkOf('photo/enhance')
    const { container } = render(
      <Provider>
        <ArtifactViewer url={url} title="The living room, enhanced" />
      </Provider>,
    )
    const loading = viewerIn(container)
    expect(loading).toHaveAttribute('data-state', 'loading')
    expect(loading).toHaveAttribute('aria-busy', 'true')
    expect(within(loading).getByRole('status')).toHaveTextContent('Loading the file…')

    const viewer = await ready(container)
    expect(viewer).toHaveAttribute('data-kind', 'image')
    const image = screen.getByRole('img', { name: 'The living room, enhanced' })
    expect(image.tagName).toBe('IMG')
    expect(image.getAttribute('src')).toMatch(/^blob:/)
    const download = screen.getByRole('link', { name: /Download/ })
    expect(download).toHaveAttribute('download', 'enhanced.png')
    expect(download).toHaveAttribute('href', image.getAttribute('src'))
    expect(download).toHaveAccessibleDescription('enhanced.png')
    expect(screen.getByRole('link', { name: /Open in a new tab/ })).toHaveAttribute('target', '_blank')
    expect(viewer).toHaveTextContent(/Image · \d/)
  })

  it('names the image by its kind when no title is given', async () => {
    const { container } = render(
      <Provider>
        <ArtifactViewer url={await linkOf('photo/enhance')} />
      </Provider>,
    )
    await ready(container)
    expect(screen.getByRole('img', { name: 'Image' })).toBeInTheDocument()
  })

  it('plays a property video in <video controls>', async () => {
    const { container } = render(
      <Provider>
        <ArtifactViewer url={await linkOf('video/create')} />
      </Provider>,
    )
    const viewer = await ready(container)
    expect(viewer).toHaveAttribute('data-kind', 'video')
    const video = viewer.querySelector('video')!
    expect(video).toHaveAttribute('controls')
    expect(video.getAttribute('src')).toMatch(/^blob:/)
    expect(screen.getByRole('link', { name: /Download/ })).toHaveAttribute('download', 'listing-video.mp4')
  })

  it('shows a PDF in a titled frame', async () => {
    const { container } = render(
      <Provider>
        <ArtifactViewer url={await linkOf('pdf/create')} />
      </Provider>,
    )
    const viewer = await ready(container)
    expect(viewer).toHaveAttribute('data-kind', 'pdf')
    const frame = viewer.querySelector('iframe')!
    expect(frame.getAttribute('src')).toMatch(/^blob:/)
    // The file's name: what a browser's own PDF viewer would otherwise show is the blob: URL's id.
    const name = screen.getByRole('link', { name: /Download/ }).getAttribute('download')!
    expect(name).toMatch(/^[a-z-]+\.pdf$/)
    expect(frame).toHaveAttribute('title', name)
    // Most of a page at a column's width with no stylesheet too, short enough to keep its actions in view.
    expect(Number(frame.getAttribute('height'))).toBeGreaterThanOrEqual(400)
    expect(Number(frame.getAttribute('height'))).toBeLessThanOrEqual(700)
    // Download comes before the frame, whose viewer holds many Tab stops of its own.
    const download = screen.getByRole('link', { name: /Download/ })
    expect(download.compareDocumentPosition(frame) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy()
  })

  it('shows a generated site in a sandbox that can neither run scripts nor act as the host, and never in the page', async () => {
    const { container } = render(
      <Provider>
        <ArtifactViewer url={await linkOf('site/create')} />
      </Provider>,
    )
    const viewer = await ready(container)
    expect(viewer).toHaveAttribute('data-kind', 'html')
    const frame = viewer.querySelector('iframe')!
    expect(frame).toHaveAttribute('sandbox')
    const sandbox = frame.getAttribute('sandbox')!
    expect(sandbox).not.toMatch(/allow-scripts/)
    expect(sandbox).not.toMatch(/allow-same-origin/)
    expect(frame).toHaveAttribute('title', 'Preview of the generated page')
    // Shown from its text: no blob: URL of the page exists that could be opened as a page of the host.
    await until(() => expect(frame.getAttribute('srcdoc')).toMatch(/<html/i))
    expect(frame).not.toHaveAttribute('src')
    // Nothing of the page itself reaches the host's DOM.
    expect(viewer.querySelectorAll('iframe ~ *, .ct-artifact-viewer__preview > :not(iframe)')).toHaveLength(0)
    const download = screen.getByRole('link', { name: /Download/ })
    expect(download.getAttribute('download')).toMatch(/\.html$/)
    // The download is a copy a browser saves rather than runs, even when opened from the context menu.
    expect(download.getAttribute('href')).toMatch(/^blob:.*#application\/octet-stream$/)
    // A blob: URL has the host's origin: opening the page in a tab would run it as the host.
    expect(screen.queryByRole('link', { name: /Open in a new tab/ })).toBeNull()
  })

  it('titles a PDF frame and its download with the name the service gives, not the link’s id', async () => {
    const url = `${MOCK_BASE_URL}/artifacts/0b6f3c2e-9a51-4d7e-8c1a-5f0e2d9b7a44`
    server.use(
      http.get(url, () =>
        new HttpResponse('%PDF-1.4\n%%EOF\n', {
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `inline; filename="brochure.pdf"; filename*=UTF-8''Brochure%20%E2%80%94%20Kazan.pdf` },
        }),
      ),
    )
    const { container } = render(
      <Provider>
        <ArtifactViewer url={url} />
      </Provider>,
    )
    const viewer = await ready(container)
    expect(viewer.querySelector('iframe')).toHaveAttribute('title', 'Brochure — Kazan.pdf')
    expect(screen.getByRole('link', { name: /Download/ })).toHaveAttribute('download', 'Brochure — Kazan.pdf')
    expect(viewer).not.toHaveTextContent('0b6f3c2e')
  })

  it.each([
    ['an SVG', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
    ['an XML file', 'text/xml', '<a/>'],
    ['an untyped file', '', new TextEncoder().encode('<script>alert(1)</script>')],
  ])('keeps %s to a download-only copy: no preview, no tab, no blob: URL of its own type', async (_name, type, body) => {
    const url = `${MOCK_BASE_URL}/artifacts/active/file`
    server.use(http.get(url, () => new HttpResponse(body, { headers: type ? { 'Content-Type': type } : {} })))
    const { container } = render(
      <Provider>
        <ArtifactViewer url={url} />
      </Provider>,
    )
    const viewer = await ready(container)
    expect(viewer).toHaveAttribute('data-kind', 'file')
    expect(viewer.querySelector('img, iframe, object, embed')).toBeNull()
    expect(screen.getByRole('link', { name: /Download/ }).getAttribute('href')).toMatch(/#application\/octet-stream$/)
    expect(screen.queryByRole('link', { name: /Open in a new tab/ })).toBeNull()
    for (const link of viewer.querySelectorAll('a[href]')) expect(link.getAttribute('href')).not.toMatch(/#(text|image|application)\/(html|svg|xhtml|xml)/)
  })

  it('cleans the name a download gets of controls and direction overrides', async () => {
    const url = `${MOCK_BASE_URL}/artifacts/rtl/x`
    server.use(
      http.get(url, () =>
        new HttpResponse('%PDF-1.4\n%%EOF\n', {
          headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `attachment; filename*=UTF-8''invoice%E2%80%AEfdp.exe%0A` },
        }),
      ),
    )
    const { container } = render(
      <Provider>
        <ArtifactViewer url={url} />
      </Provider>,
    )
    await ready(container)
    expect(screen.getByRole('link', { name: /Download/ })).toHaveAttribute('download', 'invoice_fdp.exe')
  })

  it('offers any other file as a card with its name, size and download', async () => {
    const url = `${MOCK_BASE_URL}/artifacts/zip1/listing%20photos`
    server.use(
      http.get(url, () => new HttpResponse(new Uint8Array(2048), { headers: { 'Content-Type': 'application/zip' } })),
    )
    const { container } = render(
      <Provider>
        <ArtifactViewer url={url} />
      </Provider>,
    )
    const viewer = await ready(container)
    expect(viewer).toHaveAttribute('data-kind', 'file')
    expect(viewer.querySelector('img, video, iframe')).toBeNull()
    expect(viewer).toHaveTextContent('listing photos.zip')
    expect(viewer).toHaveTextContent('File · 2 kB')
    expect(screen.getByRole('link', { name: /Download/ })).toHaveAttribute('download', 'listing photos.zip')
    expect(screen.queryByRole('link', { name: /Open in a new tab/ })).toBeNull()
  })

  it.each(TOOLS.map((tool) => tool.id))('shows every link of %s, each with a download', async (tool) => {
    const result = await drive(fastClient(MOCK_KEYS.demo).run(tool, exampleInput(tool) as never))
    const { container } = render(
      <Provider>
        {result.artifacts.map((url) => (
          <ArtifactViewer key={url} url={url} />
        ))}
      </Provider>,
    )
    const viewers = () => [...container.querySelectorAll<HTMLElement>('.ct-artifact-viewer')]
    expect(viewers()).toHaveLength(result.artifacts.length)
    await until(() => expect(viewers().every((viewer) => viewer.dataset.state === 'ready')).toBe(true))
    for (const viewer of viewers()) {
      expect(within(viewer).getByRole('link', { name: /Download/ })).toHaveAttribute('download')
    }
  })

  it('explains a link of another key as not found, without a preview or download', async () => {
    const url = await linkOf('photo/enhance')
    const { container } = render(
      <Provider apiKey={MOCK_KEYS.other}>
        <ArtifactViewer url={url} />
      </Provider>,
    )
    await until(() => expect(viewerIn(container)).toHaveAttribute('data-state', 'error'))
    const notice = screen.getByRole('alert')
    expect(notice).toHaveAttribute('data-kind', 'not-found')
    expect(notice).toHaveTextContent('No such job or file for this API key.')
    expect(within(notice).queryByRole('button', { name: 'Try again' })).toBeNull()
    expect(screen.queryByRole('img')).toBeNull()
    expect(screen.queryByRole('link', { name: /Download/ })).toBeNull()
  })

  it('downloads again on "Try again" after a lost connection', async () => {
    const url = await linkOf('photo/enhance')
    // The client's first try and every retry it makes of its own.
    service.inject({ match: { kind: 'artifact' }, fault: 'network', times: 5 })
    const { container } = render(
      <Provider>
        <ArtifactViewer url={url} />
      </Provider>,
    )
    const notice = await until(() => screen.getByRole('alert'))
    expect(notice).toHaveAttribute('data-kind', 'network')
    await drive(userEvent.click(within(notice).getByRole('button', { name: 'Try again' })))
    await ready(container)
    expect(screen.getByRole('img')).toBeInTheDocument()
  })

  it('says the file could not be loaded when there is no link', () => {
    const { container } = render(
      <Provider>
        <ArtifactViewer url="" />
      </Provider>,
    )
    expect(viewerIn(container)).toHaveAttribute('data-state', 'error')
    expect(screen.getByRole('alert')).toHaveTextContent('The file could not be loaded.')
  })

  it('takes the class names it is given', async () => {
    const { container } = render(
      <Provider>
        <ArtifactViewer url={await linkOf('photo/enhance')} className="mine" />
      </Provider>,
    )
    expect(viewerIn(container)).toHaveClass('ct-artifact-viewer', 'mine')
  })

  it('renders to a string on a server, as loading', async () => {
    const html = renderToString(
      <Provider>
        <ArtifactViewer url={`${MOCK_BASE_URL}/artifacts/a1/enhanced.png`} />
      </Provider>,
    )
    expect(html).toContain('data-state="loading"')
    expect(html).toContain('Loading the file…')
  })
})

describe('artifact file names', () => {
  it('takes the last path segment, decoded, and adds the extension of the type when missing', () => {
    expect(artifactFileName(`${MOCK_BASE_URL}/artifacts/a1/Floor%20plan.png`, 'image/png')).toBe('Floor plan.png')
    expect(artifactFileName(`${MOCK_BASE_URL}/artifacts/a1/report?x=1#top`, 'application/pdf')).toBe('report.pdf')
    expect(artifactFileName(`${MOCK_BASE_URL}/artifacts/a1/site`, 'text/html; charset=utf-8')).toBe('site.html')
    expect(artifactFileName(`${MOCK_BASE_URL}/artifacts/a1/notes.txt`, 'application/pdf')).toBe('notes.txt')
    expect(artifactFileName(`${MOCK_BASE_URL}/artifacts/a1/100%`, '')).toBe('100%')
    expect(artifactFileName(`${MOCK_BASE_URL}/artifacts/a1/..%2Fescape`, '')).toBe('_escape')
    expect(artifactFileName(`${MOCK_BASE_URL}/`, 'video/mp4')).toBe('v1.mp4')
    expect(artifactFileName('/', 'video/mp4')).toBe('download.mp4')
  })

  it('cleans what could disguise or misplace a file', () => {
    const link = `${MOCK_BASE_URL}/artifacts/a1/x`
    expect(artifactFileName(link, 'application/pdf', 'invoice\u202Efdp.exe')).toBe('invoice_fdp.exe')
    expect(artifactFileName(link, 'application/pdf', '\u2066report\u2069\u0007.pdf')).toBe('_report__.pdf')
    expect(artifactFileName(link, 'application/pdf', '../../etc/passwd')).toBe('_.._etc_passwd.pdf')
    expect(artifactFileName(link, 'text/plain', 'a\r\nb:c*?.txt')).toBe('a__b_c__.txt')
    expect(artifactFileName(link, 'image/png', ' .hidden ')).toBe('hidden.png')
    expect(artifactFileName(link, 'image/png', '\u202E')).toBe('_.png')
    expect(artifactFileName(link, 'image/png', '...')).toBe('download.png')
    expect(artifactFileName(`${MOCK_BASE_URL}/artifacts/a1/bill%E2%80%AEgpj.exe`, '')).toBe('bill_gpj.exe')
  })
})
