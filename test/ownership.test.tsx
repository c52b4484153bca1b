// Run ownership: whose runs a page shows, resumes and polls. A reload is a fresh module registry
// (the kit imported anew, as a real reload runs it anew) with the same localStorage, a fresh
// query cache and new client objects: never the same objects reused.
import '@testing-library/jest-dom/vitest'
import { QueryClient } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { useEffect, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import type { ToolsProxyOptions } from '../src/server/index.js'
import { TOOLS } from '../src/tools/index.js'
import { advance, useFakeClock } from './support/clock.js'
import { FAST, setupMockService } from './support/service.js'

type Kit = typeof import('../src/react/index.js')
type Components = typeof import('../src/components/index.js')

// A 20-second job, as pdf/create takes on the real service.
const { service } = setupMockService({ jobDurationMs: 20_000 })
beforeEach(async () => {
  await useFakeClock()
  localStorage.clear()
})
afterEach(() => vi.useRealTimers())

/** Page loads evaluate the kit anew, real work a busy machine stretches past the default 5 s: the budget for that work, not a wait on the clock. */
const RELOADS = { timeout: 30_000 }

const posts = () => service.log.filter((entry) => entry.kind === 'call')
const polls = () => service.log.filter((entry) => entry.kind === 'poll')

/**
 * The kit as a freshly loaded page has it: every module evaluated anew. The event stream's code,
 * which the client loads only once a proxy names a stream, is loaded here too: loading a module
 * takes real time, which a busy machine stretches past any amount of fake time a test advances.
 */
async function loadPage(): Promise<Kit & Components> {
  vi.resetModules()
  const [react, components] = await Promise.all([
    import('../src/react/index.js'),
    import('../src/components/index.js'),
    import('../src/client/events.js'),
  ])
  return { ...react, ...components }
}

/** A page that shows its pdf/create run and can start one. */
function pdfPage(kit: Kit) {
  const latest: { pdf?: ReturnType<Kit['usePdfCreate']> } = {}
  function PdfRunner() {
    const state = kit.usePdfCreate()
    useEffect(() => {
      latest.pdf = state
    })
    return <p data-testid="pdf">{`${state.phase} ${state.job?.jobId ?? '-'}`}</p>
  }
  return { PdfRunner, latest, shown: () => screen.getByTestId('pdf').textContent }
}

/** Advances the fake clock until `check` holds (at most `limit` ms of it), step by step rather than by a fixed amount. */
async function advanceUntil(check: () => boolean, limit = 10_000) {
  for (let waited = 0; !check() && waited < limit; waited += 100) await advance(100)
}

/** Starts a pdf/create run on a page and leaves it mid-job; returns the job id. */
async function startJob(kit: Kit, provider: (children: ReactNode) => ReactNode) {
  const page = pdfPage(kit)
  const view = render(provider(<page.PdfRunner />))
  act(() => page.latest.pdf!.run({ objectId: 'obj_demo' }))
  await advanceUntil(() => Boolean(page.latest.pdf!.job))
  const jobId = page.latest.pdf!.job?.jobId
  expect(jobId).toBeTruthy()
  view.unmount()
  return jobId!
}

describe('a provider given a client', RELOADS, () => {
  it('finds its own run after a reload, whatever other clients the new page made first: same job, billed 1', async () => {
    const before = await loadPage()
    const client = () => before.createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo })
    const jobId = await startJob(before, (children) => (
      <before.ToolsProvider client={client()} queryClient={new QueryClient()}>
        {children}
      </before.ToolsProvider>
    ))

    const after = await loadPage()
    const page = pdfPage(after)
    render(
      <>
        {/* Another part of the reloaded page, with a client of its own, comes first. */}
        <after.ToolsProvider client={after.createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.other })}>
          {null}
        </after.ToolsProvider>
        <after.ToolsProvider client={after.createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo })} queryClient={new QueryClient()}>
          <page.PdfRunner />
        </after.ToolsProvider>
      </>,
    )
    await advance(1_000)
    expect(page.shown()).toMatch(new RegExp(`^(pending|running) ${jobId}$`))
    await advanceUntil(() => page.shown() === `succeeded ${jobId}`, 40_000)
    expect(page.shown()).toBe(`succeeded ${jobId}`)
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('never shows or polls another key’s run after a reload, even as the first client made', async () => {
    const before = await loadPage()
    const jobId = await startJob(before, (children) => (
      <before.ToolsProvider client={before.createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo })}>
        {children}
      </before.ToolsProvider>
    ))
    const pollsBefore = polls().length

    const after = await loadPage()
    const page = pdfPage(after)
    render(
      <after.ToolsProvider client={after.createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.other })} queryClient={new QueryClient()}>
        <page.PdfRunner />
        <after.RecentRuns />
      </after.ToolsProvider>,
    )
    await advance(5_000)
    expect(page.shown()).toBe('idle -')
    expect(screen.queryByText(jobId)).toBeNull()
    expect(polls().slice(pollsBefore)).toEqual([])
  })

  it('two clients made alike share their runs', async () => {
    const kit = await loadPage()
    const made = () => kit.createToolsClient({ baseUrl: `${MOCK_BASE_URL}/`, apiKey: () => MOCK_KEYS.demo, ...FAST })
    const jobId = await startJob(kit, (children) => <kit.ToolsProvider client={made()}>{children}</kit.ToolsProvider>)
    const page = pdfPage(kit)
    render(
      <kit.ToolsProvider client={kit.createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo })}>
        <page.PdfRunner />
      </kit.ToolsProvider>,
    )
    await advance(1_000)
    expect(page.shown()).toMatch(new RegExp(` ${jobId}$`))
  })
})

it('a relative base URL and its absolute spelling are one fingerprint', async () => {
  const { fingerprint } = await import('../src/react/fingerprint.js')
  expect(fingerprint('/api/tools', undefined)).toBe(fingerprint(`${location.origin}/api/tools/`, undefined))
  expect(fingerprint('/api/tools', undefined)).not.toBe(fingerprint('/api/tools', undefined, 'alice'))
})

describe('one browser, several people behind a proxy', RELOADS, () => {
  let signedIn: string | null = null
  beforeEach(() => {
    signedIn = null
  })

  /** The partner's proxy, answering in process; it reaches the simulated service with its own key. */
  async function proxyClient(kit: Kit) {
    const { createToolsProxy } = await import('../src/server/index.js')
    const options: ToolsProxyOptions = {
      baseUrl: MOCK_BASE_URL,
      apiKey: MOCK_KEYS.demo,
      basePath: '/api/tools',
      secret: 'a-test-secret-of-at-least-thirty-two-characters',
      authorize: () => (signedIn ? { user: signedIn, tools: TOOLS.map((tool) => tool.id) } : null),
      onError: () => {},
    }
    const proxy = createToolsProxy(options)
    return kit.createToolsClient({
      baseUrl: 'https://partner.test/api/tools',
      fetch: (input, init) => proxy.handle(new Request(input, init)),
    })
  }

  function Page({ kit, user, client, children }: { kit: Kit; user?: string; client: Awaited<ReturnType<typeof proxyClient>>; children: ReactNode }) {
    return (
      <kit.ToolsProvider client={client} user={user} queryClient={new QueryClient()}>
        {children}
      </kit.ToolsProvider>
    )
  }

  it('the next person sees none of the last one’s runs, nothing is polled for them, and each gets their own back', async () => {
    signedIn = 'alice'
    const first = await loadPage()
    const alicesClient = await proxyClient(first)
    const jobId = await startJob(first, (children) => (
      <Page kit={first} user="alice" client={alicesClient}>
        {children}
      </Page>
    ))
    // Nothing of Alice's id or input is stored in the clear.
    expect(JSON.stringify({ ...localStorage })).not.toContain('alice')

    // Alice signs out; Bob signs in on the same browser and reloads.
    signedIn = 'bob'
    const second = await loadPage()
    const bobs = pdfPage(second)
    const pollsBefore = polls().length
    const bobsClient = await proxyClient(second)
    const bobView = render(
      <Page kit={second} user="bob" client={bobsClient}>
        <bobs.PdfRunner />
        <second.RecentRuns />
      </Page>,
    )
    await advance(5_000)
    expect(bobs.shown()).toBe('idle -')
    expect(screen.queryByText(/obj_demo/)).toBeNull()
    expect(screen.queryAllByRole('listitem')).toHaveLength(0)
    expect(polls().slice(pollsBefore)).toEqual([])
    bobView.unmount()

    // Alice signs in again: her run is back and followed to its end.
    signedIn = 'alice'
    const third = await loadPage()
    const alices = pdfPage(third)
    const againClient = await proxyClient(third)
    render(
      <Page kit={third} user="alice" client={againClient}>
        <alices.PdfRunner />
      </Page>,
    )
    await advanceUntil(() => alices.shown() === `succeeded ${jobId}`, 40_000)
    expect(alices.shown()).toBe(`succeeded ${jobId}`)
    expect(service.bills()).toBe(1)
  })

  it('a sign-in without a reload drops the last person’s unfinished run from view and stops polling it', async () => {
    signedIn = 'alice'
    const kit = await loadPage()
    const client = await proxyClient(kit)
    const page = pdfPage(kit)
    const queryClient = new QueryClient()
    const view = (user: string) => (
      <kit.ToolsProvider client={client} user={user} queryClient={queryClient}>
        <page.PdfRunner />
        <kit.RecentRuns />
      </kit.ToolsProvider>
    )
    const { rerender } = render(view('alice'))
    act(() => page.latest.pdf!.run({ objectId: 'obj_demo' }))
    await advanceUntil(() => Boolean(page.latest.pdf!.job))
    const jobId = page.latest.pdf!.job!.jobId
    expect(page.shown()).toBe(`${page.latest.pdf!.phase} ${jobId}`)

    signedIn = 'bob'
    rerender(view('bob'))
    await advance(100)
    const pollsBefore = polls().length
    await advance(10_000)
    expect(page.shown()).toBe('idle -')
    expect(screen.queryAllByRole('listitem')).toHaveLength(0)
    expect(polls().slice(pollsBefore)).toEqual([])

    // Alice signs in again: her run is back, followed to its end.
    signedIn = 'alice'
    rerender(view('alice'))
    await advanceUntil(() => page.shown() === `succeeded ${jobId}`, 40_000)
    expect(page.shown()).toBe(`succeeded ${jobId}`)
    expect(service.bills()).toBe(1)
  })

  it('with no user, keeps runs in this page’s memory only, and says once how to keep them when the first is kept', async () => {
    signedIn = 'alice'
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const kit = await loadPage()
    const client = await proxyClient(kit)
    const page = pdfPage(kit)
    const view = render(
      <>
        <Page kit={kit} client={client}>
          <page.PdfRunner />
          <kit.RecentRuns />
        </Page>
        <Page kit={kit} client={client}>
          {null}
        </Page>
      </>,
    )
    // A visitor who runs nothing (every anonymous page view) hears nothing.
    await advanceUntil(() => page.shown() === 'idle -')
    expect(warn).not.toHaveBeenCalled()
    act(() => page.latest.pdf!.run({ objectId: 'obj_demo' }))
    await advanceUntil(() => Boolean(page.latest.pdf!.job))
    expect(page.shown()).toMatch(/^(pending|running) \S+$/)
    expect(Object.keys(localStorage)).toEqual([])
    view.unmount()

    const messages = warn.mock.calls.map(([message]) => String(message))
    warn.mockRestore()
    expect(messages).toHaveLength(1)
    expect(messages[0]).toMatch(/user=/)
  })

  it('forgets the signed-in person’s runs at sign-out, and only theirs', async () => {
    const kit = await loadPage()
    signedIn = 'bob'
    const bobsClient = await proxyClient(kit)
    await startJob(kit, (children) => (
      <Page kit={kit} user="bob" client={bobsClient}>
        {children}
      </Page>
    ))
    signedIn = 'alice'
    const client = await proxyClient(kit)
    let forgetRuns: ((user?: string) => Promise<void>) | undefined
    function SignOut() {
      forgetRuns = kit.useForgetRuns()
      return null
    }
    const page = pdfPage(kit)
    render(
      <Page kit={kit} user="alice" client={client}>
        <page.PdfRunner />
        <kit.RecentRuns />
        <SignOut />
      </Page>,
    )
    act(() => page.latest.pdf!.run({ objectId: 'obj_demo' }))
    await advanceUntil(() => Boolean(page.latest.pdf!.job))
    expect(Object.keys(localStorage)).toHaveLength(2)
    expect(screen.getAllByRole('listitem')).toHaveLength(1)

    await act(() => forgetRuns!())
    // The page is still mounted (sign-out has not changed `user` yet): nothing is written back.
    await advance(10_000)
    expect(screen.queryAllByRole('listitem')).toHaveLength(0)
    // Bob's run stays for Bob, until his own runs are forgotten by his id.
    expect(Object.keys(localStorage)).toHaveLength(1)
    await act(() => forgetRuns!('bob'))
    expect(Object.keys(localStorage)).toEqual([])
  })
})
