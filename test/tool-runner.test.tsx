import '@testing-library/jest-dom/vitest'
import { fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactNode } from 'react'
import { renderToString } from 'react-dom/server'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import {
  ArtifactViewer,
  ErrorNotice,
  FieldError,
  FileDrop,
  JobProgress,
  ResultView,
  ToolRunner,
  UploadForm,
} from '../src/components/index.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ru } from '../src/entries/locales/ru.js'
import { createToolsClient, ToolsError, ToolsProvider, TOOLS, type ToolId } from '../src/react/index.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { fakeClock } from './support/clock.js'
import { testProxy } from './support/proxy.js'
import { fastClient, pngFile, setupMockService } from './support/service.js'
import { loadUploadForm } from '../src/components/UploadForm.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as a page shown before would have.
beforeAll(() => loadUploadForm())

const { service, server } = setupMockService()
const { until, drive, advance } = fakeClock(server)
const BILLING = 'https://cabinet.example/billing'

function Provider({ children, apiKey = MOCK_KEYS.demo }: { children?: ReactNode; apiKey?: string }) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={apiKey} pollInterval={10} billingUrl={BILLING}>
      {children}
    </ToolsProvider>
  )
}

stubObjectUrls()

const calls = () => service.log.filter((entry) => entry.kind === 'call')
/** The names of the buttons a person can press (file pickers and the drop area aside). */
const enabledButtons = () =>
  screen
    .queryAllByRole('button')
    .filter((button) => !(button as HTMLButtonElement).disabled && !button.closest('.ct-file-drop'))
    .map((button) => button.textContent)

/** A text/generate runner whose input checks are as slow as on a busy machine: each answers when the test calls its entry. */
function renderWithSlowChecks(): (() => void)[] {
  const client = createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo, pollInterval: 10 })
  const validate = client.validate.bind(client)
  const pending: (() => void)[] = []
  vi.spyOn(client, 'validate').mockImplementation(
    (tool, input) => new Promise((resolve) => pending.push(() => resolve(validate(tool, input)))),
  )
  render(
    <ToolsProvider client={client}>
      <ToolRunner tool="text/generate" />
    </ToolsProvider>,
  )
  return pending
}

describe('<ToolRunner>', () => {
  it('valuation/rent: typed fields to the rent shown', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="valuation/rent" input={{ city: 'Kazan' }} />, { wrapper: Provider })
    expect(screen.getByRole('heading', { name: 'Rent estimate' })).toBeInTheDocument()
    expect(screen.getByLabelText('City')).toHaveValue('Kazan')
    await drive(user.type(screen.getByLabelText(/Property type/), 'flat'))
    await drive(user.type(screen.getByLabelText(/Total area/), '54'))
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    // Named by its tool: a page with two runners has two regions a screen reader tells apart.
    const result = await until(() => screen.getByRole('region', { name: 'Rent estimate: result' }))
    expect(within(result).getByText('Monthly')).toBeInTheDocument()
    expect(calls()).toEqual([expect.objectContaining({ tool: 'valuation/rent', status: 200 })])
    expect(within(result).getByText('Monthly').nextElementSibling!.textContent).toMatch(/^\d{1,3}(,\d{3})*(\.\d+)?$/)
    expect(result.parentElement).toHaveFocus()
  })

  it('validates inline, next to each field, before anything is sent', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="valuation/rent" />, { wrapper: Provider })
    const area = screen.getByLabelText(/Total area/)
    await drive(user.type(area, '-5'))
    await drive(user.tab())
    expect(await until(() => screen.getByText('Enter a number greater than zero.'))).toBeInTheDocument()
    expect(area).toHaveAttribute('aria-invalid', 'true')
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    expect(await until(() => screen.getByRole('alert'))).toHaveFocus()
    expect(screen.getAllByText('This field is required.')).not.toHaveLength(0)
    expect(service.log).toHaveLength(0)
  })

  it('photo/enhance: a dropped PNG to the enhanced image shown from an object URL', async () => {
    const user = userEvent.setup()
    const { container } = render(<ToolRunner tool="photo/enhance" />, { wrapper: Provider })
    await drive(user.upload(container.querySelector<HTMLInputElement>('input[type="file"]')!, pngFile()))
    await drive(user.type(screen.getByLabelText(/Enhancement mode/), 'hdr'))
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    const image = await until(() => screen.getByRole('img', {}))
    expect(image.getAttribute('src')).toMatch(/^blob:.*#image\/png$/)
    expect(calls()).toHaveLength(1)
    expect(service.bills()).toBe(1)
    expect(screen.getByRole('button', { name: 'Run again' })).toBeInTheDocument()
  })

  it('a file tool whose job fails says so once, with Try again', async () => {
    service.setOutcome('failed')
    const user = userEvent.setup()
    const { container } = render(<ToolRunner tool="photo/enhance" />, { wrapper: Provider })
    await drive(user.upload(container.querySelector<HTMLInputElement>('input[type="file"]')!, pngFile()))
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    await until(() => expect(document.querySelector('[data-kind="job-failed"]')).not.toBeNull())
    const notices = screen.getAllByRole('alert').filter((alert) => alert.getAttribute('data-kind') === 'job-failed')
    expect(notices).toHaveLength(1)
    // One way on: the notice's Try again, no Run or Run again beside it.
    expect(enabledButtons()).toEqual(['Try again'])
    expect(within(notices[0]!).getByRole('button', { name: 'Try again' })).toBeInTheDocument()
  })

  it('a JSON tool whose fields the spec leaves open takes them as options', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="text/generate" />, { wrapper: Provider })
    const options = screen.getByLabelText(/Options \(JSON\)/)
    // Text that does not parse is told where it stops; JSON of another shape, that it must be an object.
    await drive(user.type(options, '{{"prompt": "two rooms",{enter}  "tone": warm}'))
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    expect(await until(() => screen.getByText('This JSON does not parse: look at line 2, column 11.'))).toBeInTheDocument()
    expect(options).toHaveAccessibleDescription(/line 2, column 11/)
    await drive(user.clear(options))
    await drive(user.type(options, '[[1, 2]'))
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    expect(await until(() => screen.getByText('Enter a JSON object of fields.'))).toBeInTheDocument()
    expect(service.log).toHaveLength(0)
    await drive(user.clear(options))
    await drive(user.type(options, '{{"prompt": "two rooms"}'))
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    await until(() => screen.getByRole('region', { name: /: result$/ }))
    expect(calls()).toHaveLength(1)
  })

  it('a check that answers while Run is pressed shows after the click: the problem line stays put under the press, and the press runs once', async () => {
    const pending = renderWithSlowChecks()
    const user = userEvent.setup()
    const options = screen.getByLabelText(/Options \(JSON\)/)
    await drive(user.type(options, '{{"prompt": "two rooms"'))
    await drive(user.tab())
    await until(() => expect(options).toHaveAttribute('aria-invalid', 'true'))
    await drive(user.type(options, '}'))
    const run = screen.getByRole('button', { name: 'Run' })
    await drive(user.pointer({ keys: '[MouseLeft>]', target: run }))
    // The fix's check answers during the press: its line (and the button's place) waits for the click.
    expect(pending.length).toBeGreaterThan(0)
    for (const answer of pending.splice(0)) answer()
    await advance(50)
    expect(options).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByText(/This JSON does not parse/)).toBeInTheDocument()
    await drive(user.pointer({ keys: '[/MouseLeft]', target: run }))
    await until(() => screen.getByRole('region', { name: /: result$/ }))
    expect(calls()).toHaveLength(1)
    expect(options).toHaveAttribute('aria-invalid', 'false')
  })

  it("a check that answers between a tap's release and its click still waits for the click", async () => {
    const pending = renderWithSlowChecks()
    const user = userEvent.setup()
    const options = screen.getByLabelText(/Options \(JSON\)/)
    await drive(user.type(options, '{{"prompt": "two rooms"'))
    await drive(user.tab())
    for (const answer of pending.splice(0)) answer()
    await until(() => expect(options).toHaveAttribute('aria-invalid', 'true'))
    await drive(user.type(options, '}'))
    const run = screen.getByRole('button', { name: 'Run' })
    // A tap: the release, then its click a turn later; the fix's check answers in between.
    fireEvent.pointerDown(run)
    fireEvent.pointerUp(run)
    for (const answer of pending.splice(0)) answer()
    await advance(50)
    expect(options).toHaveAttribute('aria-invalid', 'true')
    fireEvent.click(run)
    await until(() => screen.getByRole('region', { name: /: result$/ }))
    expect(calls()).toHaveLength(1)
    expect(options).toHaveAttribute('aria-invalid', 'false')
  })

  it('402: the billing notice links to the billing page', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="valuation/rent" input={{ propertyCategory: 'flat', totalArea: 40, city: 'Ufa' }} />, {
      wrapper: ({ children }) => <Provider apiKey={MOCK_KEYS.broke}>{children}</Provider>,
    })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    const notice = await until(() => screen.getByRole('alert'))
    expect(notice).toHaveAttribute('data-kind', 'billing')
    expect(within(notice).getByRole('link')).toHaveAttribute('href', BILLING)
    expect(notice).toHaveFocus()
  })

  it('403: the missing scope is named, with where to make a key that has it', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="pdf/create" input={{ objectId: 'obj_demo' }} />, {
      wrapper: ({ children }) => <Provider apiKey={MOCK_KEYS.limited}>{children}</Provider>,
    })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    const notice = await until(() => screen.getByRole('alert'))
    expect(notice).toHaveTextContent('tools:pdf')
    expect(notice).toHaveTextContent(/AI tools.*API.*Keys/)
  })

  it('listing access: someone else’s listing is said to be theirs', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="site/create" input={{ objectId: 'obj_other' }} />, { wrapper: Provider })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    const notice = await until(() => screen.getByRole('alert'))
    expect(notice).toHaveAttribute('data-kind', 'listing-access')
    expect(notice).toHaveTextContent(/another account/i)
  })

  it('after a success one button goes on: "Run again", with the fields as they are', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="valuation/rent" input={{ propertyCategory: 'flat', totalArea: 40, city: 'Ufa' }} />, { wrapper: Provider })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    await until(() => screen.getByRole('region', { name: /: result$/ }))
    expect(enabledButtons()).toEqual(['Run again'])
    await drive(user.clear(screen.getByLabelText(/Total area/)))
    await drive(user.type(screen.getByLabelText(/Total area/), '80'))
    await drive(user.click(screen.getByRole('button', { name: 'Run again' })))
    await until(() => expect(calls()).toHaveLength(2))
    expect(service.log.at(-1)).toMatchObject({ tool: 'valuation/rent' })
    const result = await until(() => screen.getByRole('region', { name: /: result$/ }))
    expect(within(result).getByText('80')).toBeInTheDocument()
    expect(screen.getByLabelText(/City/)).toHaveValue('Ufa')
  })

  it('402: one way on, the notice’s Try again (no Run beside it)', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="valuation/rent" input={{ propertyCategory: 'flat', totalArea: 40, city: 'Ufa' }} />, {
      wrapper: ({ children }) => <Provider apiKey={MOCK_KEYS.broke}>{children}</Provider>,
    })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    await until(() => screen.getByRole('alert'))
    expect(enabledButtons()).toEqual(['Try again'])
  })

  it('429 past the wait budget: nothing that retries is enabled until the countdown ends', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'rate-limit', retryAfterMs: 30_000 })
    const user = userEvent.setup()
    render(
      <ToolsProvider client={fastClient(MOCK_KEYS.demo, { retry: { maxWait: 0 } })}>
        <ToolRunner tool="valuation/rent" input={{ propertyCategory: 'flat', totalArea: 40, city: 'Ufa' }} />
      </ToolsProvider>,
    )
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    const notice = await until(() => screen.getByRole('alert'))
    expect(notice).toHaveAttribute('data-kind', 'rate-limit')
    expect(enabledButtons()).toEqual([])
    await until(() => expect(enabledButtons()).toEqual(['Try again']), { timeout: 31_000, step: 500 })
  })

  it('403 for a key without the scope: no way to try again, as none can help', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="pdf/create" input={{ objectId: 'obj_demo' }} />, {
      wrapper: ({ children }) => <Provider apiKey={MOCK_KEYS.limited}>{children}</Provider>,
    })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    await until(() => screen.getByRole('alert'))
    expect(enabledButtons()).toEqual([])
  })

  it('a validation problem leaves Run, for the person to fix the field', async () => {
    const user = userEvent.setup()
    render(<ToolRunner tool="valuation/rent" />, { wrapper: Provider })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    await until(() => screen.getByRole('alert'))
    expect(enabledButtons()).toEqual(['Run'])
  })

  it('reads well with no stylesheet: each label on its own line above its field, not run into it', () => {
    const { container } = render(<ToolRunner tool="valuation/rent" input={{ propertyCategory: 'apartment' }} />, { wrapper: Provider })
    for (const label of container.querySelectorAll('label')) {
      expect(label.nextElementSibling?.tagName, label.textContent!).toBe('BR')
      expect(label.nextElementSibling!.nextElementSibling).toBe(document.getElementById(label.htmlFor))
    }
  })

  it('speaks Russian with the Russian messages', () => {
    render(
      <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} messages={ru}>
        <ToolRunner tool="valuation/rent" />
      </ToolsProvider>,
    )
    expect(screen.getByRole('button', { name: ru.runner.submit })).toBeInTheDocument()
  })
})

describe('on the server', () => {
  it('every component renders with renderToString', () => {
    const job = { tool: 'pdf/create', jobId: 'j', status: 'pending', phase: 'pending' as const, data: {}, artifacts: [] }
    const html = renderToString(
      <Provider>
        {TOOLS.map((tool) => (
          <ToolRunner key={tool.id} tool={tool.id} />
        ))}
        <UploadForm tool="photo/enhance" />
        <FileDrop file={null} onFileChange={() => undefined} />
        <JobProgress job={job} />
        <JobProgress tool="pdf/create" jobId="j" />
        <ArtifactViewer url={`${MOCK_BASE_URL}/artifacts/x/a.png`} />
        <ResultView result={{ tool: 'valuation/rent', data: { rent: 1 }, artifacts: [] }} />
        <ErrorNotice error={new ToolsError('billing', 'x')} />
        <FieldError error={null} field="city" id="e" />
      </Provider>,
    )
    expect(html).toContain('Rent estimate')
    expect(html).toContain('ct-tool-runner')
  })
})

describe('<ToolRunner> behind the proxy', () => {
  /** A page at jsdom's origin whose calls go through a proxy in process to the simulated service. */
  function behindProxy(user: string | undefined, tools?: ToolId[]) {
    const proxy = testProxy((input, init) => service.fetch(input, init), { baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo }, () => tools)
    const client = createToolsClient({
      baseUrl: '/api/tools',
      retry: false,
      pollInterval: 10,
      headers: user ? { 'x-user': user } : {},
      fetch: (input, init) => proxy.handle(new Request(new URL(String(input), location.href), init)),
    })
    return ({ children }: { children?: ReactNode }) => (
      <ToolsProvider client={client} user={user ?? 'nobody'} journal={false}>
        {children}
      </ToolsProvider>
    )
  }

  it('shows the signed file as a file, never its address as a "Url" row', async () => {
    const user = userEvent.setup()
    const { container } = render(<ToolRunner tool="site/create" input={{ objectId: 'obj_demo' }} />, {
      wrapper: behindProxy('alice'),
    })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    const result = await until(() => screen.getByRole('region', { name: /: result$/ }))
    await until(() => within(result).getByRole('link', { name: 'Download' }))
    // The answer's `site: { url, title }`: the title is a row, the signed link only the file below.
    expect(within(result).getByText('Listing obj_demo')).toBeInTheDocument()
    expect(within(result).queryByText('Url')).toBeNull()
    expect(container.querySelector('.ct-result__fields')!.textContent).not.toMatch(/artifacts/)
  }, 15_000)

  it.each([
    ['401, signed out', undefined, 'Sign in to use this tool'],
    ['403, a tool not theirs', 'alice', 'This tool isn’t available to you'],
  ])('%s: no way to try again, as none can help', async (_, person, title) => {
    const user = userEvent.setup()
    render(<ToolRunner tool="valuation/rent" input={{ propertyCategory: 'flat', totalArea: 40, city: 'Ufa' }} />, {
      wrapper: behindProxy(person, ['pdf/create']),
    })
    await drive(user.click(screen.getByRole('button', { name: 'Run' })))
    expect(await until(() => screen.getByRole('alert'))).toHaveTextContent(title)
    expect(enabledButtons()).toEqual([])
  })
})
