// The browser side of the proxy's own refusals: each has its own notice, and none sends an end
// user to top up the site's wallet. The proxy answers in process here (its handler is plain
// Fetch); the HTTP round trips are in server.test.ts.
import '@testing-library/jest-dom/vitest'
import { act, fireEvent, render, screen, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { ErrorNotice, ToolRunner } from '../src/components/index.js'
import { exampleInput } from '../src/mock/index.js'
import { ru } from '../src/entries/locales/ru.js'
import { ToolsProvider, type PartialMessages } from '../src/react/index.js'
import { createToolsProxy, type ToolsProxyOptions } from '../src/server/index.js'
import { createToolsClient, type ToolsError } from '../src/tools/index.js'
import { loadUploadForm } from '../src/components/UploadForm.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as a page shown before would have.
beforeAll(() => loadUploadForm())

/** Alice may run one tool, and has no calls left. */
const proxyOptions: ToolsProxyOptions = {
  baseUrl: 'https://tools.cabinet.test/v1',
  apiKey: 'server-key',
  basePath: '/api/tools',
  secret: 'a-test-secret-of-at-least-thirty-two-characters',
  authorize: (request) => (request.headers.get('x-user') ? { user: 'alice', tools: ['valuation/rent'] } : null),
  limits: { calls: 0, windowMs: 60_000 },
  // A stand-in service that reads the whole body before answering.
  fetch: async (_url, init) => {
    await new Response(init?.body).arrayBuffer()
    return Response.json({})
  },
  onError: () => {},
}
let proxy = createToolsProxy(proxyOptions)

/** A page's client, whose requests the proxy answers; nothing here reaches a service. */
const browser = (user?: string) =>
  createToolsClient({
    baseUrl: 'https://partner.test/api/tools',
    retry: false,
    headers: user ? { 'x-user': user } : {},
    fetch: (input, init) => proxy.handle(new Request(input, init)),
  })

async function refusal(user: string | undefined, tool: 'valuation/rent' | 'pdf/create') {
  return (await browser(user)
    .run(tool, exampleInput(tool) as never)
    .then(() => expect.unreachable('the proxy refuses'))
    .catch((error: unknown) => error)) as ToolsError
}

function show(error: ToolsError, messages?: PartialMessages) {
  render(
    <ToolsProvider client={browser()} user="alice" billingUrl="https://partner.test/billing" messages={messages}>
      <ErrorNotice error={error} onRetry={() => {}} />
    </ToolsProvider>,
  )
  return screen.getByRole('alert')
}

describe('notices for the proxy’s refusals', () => {
  it('asks a signed-out person to sign in (401)', async () => {
    const notice = show(await refusal(undefined, 'valuation/rent'))
    expect(notice).toHaveTextContent('Sign in to use this tool')
    expect(notice).not.toHaveTextContent(/API key/i)
    expect(within(notice).queryByRole('button', { name: 'Try again' })).toBeNull()
  })

  it('says a tool outside the user’s tools is not theirs to use, naming no scope or key (403)', async () => {
    const notice = show(await refusal('alice', 'pdf/create'))
    expect(notice).toHaveAttribute('data-kind', 'scope')
    expect(notice).toHaveTextContent('This tool isn’t available to you')
    expect(notice).not.toHaveTextContent(/scope|key/i)
  })

  it('tells a user over their cap to wait, never to top up the site’s wallet (402)', async () => {
    const notice = show(await refusal('alice', 'valuation/rent'))
    expect(notice).toHaveAttribute('data-kind', 'billing')
    expect(notice).toHaveTextContent('You’ve reached your limit for now')
    expect(notice).not.toHaveTextContent(/top up|wallet|funds/i)
    expect(within(notice).queryByRole('link')).toBeNull()
    expect(within(notice).queryByRole('button', { name: 'Try again' })).toBeNull()
  })

  it('says a file is too large for the site (413), in Russian too', async () => {
    proxy = createToolsProxy({ ...proxyOptions, limits: undefined, maxUploadBytes: 10 })
    const error = await refusal('alice', 'valuation/rent')
    expect(error.status).toBe(413)
    expect(show(error, ru)).toHaveTextContent('Файл слишком большой')
  })
})

describe('<ToolRunner> under the proxy’s cap', () => {
  it('runs again once the cap resets, with no reload (the button is back and the call is sent)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'], now: Date.parse('2026-11-28T14:50:00Z') })
    try {
      let calls = 0
      proxy = createToolsProxy({
        ...proxyOptions,
        limits: { calls: 1, windowMs: 60_000 },
        fetch: async () => {
          calls++
          return Response.json({ requestId: `r${calls}`, rent: 1000 })
        },
      })
      render(
        <ToolsProvider client={browser('alice')} user="alice">
          <ToolRunner tool="valuation/rent" input={exampleInput('valuation/rent') as never} />
        </ToolsProvider>,
      )
      fireEvent.click(screen.getByRole('button', { name: 'Run' }))
      await vi.waitFor(() => screen.getByRole('button', { name: 'Run again' }))
      fireEvent.click(screen.getByRole('button', { name: 'Run again' }))
      await vi.waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('You can run tools again from'))
      expect(screen.queryByRole('button', { name: /Run/ })).toBeNull()
      expect(calls).toBe(1)

      // The window ends: the form's button comes back and a run goes to the service.
      await act(() => vi.advanceTimersByTimeAsync(61_000))
      expect(screen.queryByRole('alert')).toBeNull()
      fireEvent.click(screen.getByRole('button', { name: 'Run' }))
      await vi.waitFor(() => expect(calls).toBe(2))
    } finally {
      vi.useRealTimers()
      proxy = createToolsProxy(proxyOptions)
    }
  })
})
