// What a person has left, in the page: `useUsage()`, `<UsageMeter>` and the notice of the cap,
// behind a proxy answering in process (its handler is plain Fetch) over a stand-in service. Only
// the clock is fake; the person's time zone is Moscow's.
import '@testing-library/jest-dom/vitest'
import { act, render, renderHook, screen, within } from '@testing-library/react'
import { createRef, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ErrorNotice, UsageMeter } from '../src/components/index.js'
import { ru } from '../src/entries/locales/ru.js'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider, useUsage, useValuationRent, type PartialMessages } from '../src/react/index.js'
import { createToolsProxy } from '../src/server/index.js'
import { createToolsClient, type ToolsError } from '../src/tools/index.js'

process.env.TZ = 'Europe/Moscow'
const HOUR = 3_600_000
const rent = { propertyCategory: 'flat', totalArea: 50, city: 'Tver' }

/** Every request the page sent, as `METHOD /path`. */
let sent: string[] = []
let limits: { calls: number; windowMs: number } | undefined
const proxy = () =>
  createToolsProxy({
    baseUrl: 'https://tools.cabinet.test/v1',
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: 'a-test-secret-of-at-least-thirty-two-characters',
    authorize: (request) => {
      const user = request.headers.get('x-user')
      return user ? { user, tools: ['valuation/rent'] } : null
    },
    limits,
    fetch: async () => Response.json({ monthlyRent: 42_000 }),
    onError: () => {},
  })

function behindProxy(user = 'alice') {
  const handler = proxy()
  return createToolsClient({
    baseUrl: 'https://partner.test/api/tools',
    retry: false,
    headers: { 'x-user': user },
    fetch: (input, init) => {
      const request = new Request(input, init)
      sent.push(`${request.method} ${new URL(request.url).pathname}`)
      return handler.handle(request)
    },
  })
}

const usageReads = () => sent.filter((line) => line === 'GET /api/tools/usage').length

beforeEach(() => {
  sent = []
  limits = { calls: 3, windowMs: HOUR }
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
  vi.setSystemTime(new Date('2026-11-26T10:15:00Z'))
})
afterEach(() => vi.useRealTimers())

function wrapperOf(client: ReturnType<typeof createToolsClient>, messages?: PartialMessages) {
  return function Wrapper({ children }: { children?: ReactNode }) {
    return (
      <ToolsProvider client={client} user="alice" messages={messages}>
        {children}
      </ToolsProvider>
    )
  }
}

/** Lets the requests under way be answered, with the fake clock standing still. */
const answered = () => act(() => vi.advanceTimersByTimeAsync(0))

describe('useUsage', () => {
  it('reads the person’s standing, and again when one of their runs settles, refused or not', async () => {
    limits = { calls: 1, windowMs: HOUR }
    const { result } = renderHook(() => ({ usage: useUsage(), rent: useValuationRent() }), { wrapper: wrapperOf(behindProxy()) })
    await vi.waitFor(() => expect(result.current.usage.data).toEqual({ used: 0, limit: 1, resetAt: '2026-11-26T11:00:00.000Z' }))
    expect(usageReads()).toBe(1)

    await act(() => result.current.rent.runAsync(rent))
    await vi.waitFor(() => expect(result.current.usage.data?.used).toBe(1))
    expect(usageReads()).toBe(2)

    // Refused by the cap: read again, and nothing more was counted.
    await act(() => result.current.rent.runAsync(rent).catch(() => undefined))
    expect(result.current.rent.error).toMatchObject({ kind: 'billing', status: 402 })
    await vi.waitFor(() => expect(usageReads()).toBe(3))
    expect(result.current.usage.data?.used).toBe(1)
  })

  it('reads it again when the window resets', async () => {
    vi.setSystemTime(new Date('2026-11-26T10:59:00Z'))
    const { result } = renderHook(() => ({ usage: useUsage(), rent: useValuationRent() }), { wrapper: wrapperOf(behindProxy()) })
    await vi.waitFor(() => expect(result.current.usage.data?.resetAt).toBe('2026-11-26T11:00:00.000Z'))
    await act(() => result.current.rent.runAsync(rent))
    await vi.waitFor(() => expect(result.current.usage.data?.used).toBe(1))
    const before = usageReads()
    await act(() => vi.advanceTimersByTimeAsync(59_000))
    expect(usageReads()).toBe(before)
    await act(() => vi.advanceTimersByTimeAsync(2_000))
    await vi.waitFor(() => expect(result.current.usage.data).toEqual({ used: 0, limit: 3, resetAt: '2026-11-26T12:00:00.000Z' }))
    expect(usageReads()).toBe(before + 1)
  })

  it('with the key in the page there is no per-person cap: no request, no data, not enabled', async () => {
    const fetch = vi.fn(globalThis.fetch)
    const wrapper = ({ children }: { children?: ReactNode }) => (
      <ToolsProvider client={createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo, fetch })}>{children}</ToolsProvider>
    )
    const { result } = renderHook(() => useUsage(), { wrapper })
    await answered()
    expect(result.current).toMatchObject({ data: undefined, isEnabled: false, fetchStatus: 'idle', status: 'pending' })
    expect(fetch).not.toHaveBeenCalled()
  })
})

describe('<UsageMeter>', () => {
  it('shows the runs left as a meter, and when the count starts again in the person’s time', async () => {
    const ref = createRef<HTMLDivElement>()
    const { container } = render(<UsageMeter ref={ref} className="mine" data-testid="usage" />, { wrapper: wrapperOf(behindProxy()) })
    const meter = await vi.waitFor(() => screen.getByRole('meter', { name: 'Tool runs' }))
    expect(meter).toHaveAttribute('aria-valuenow', '3')
    expect(meter).toHaveAttribute('aria-valuemin', '0')
    expect(meter).toHaveAttribute('aria-valuemax', '3')
    expect(meter).toHaveAttribute('aria-valuetext', '3 of 3 runs left')
    const root = screen.getByTestId('usage')
    expect(root).toBe(container.firstElementChild)
    expect(ref.current).toBe(root)
    expect(root.className).toBe('ct-usage-meter mine')
    expect(root).toHaveAttribute('data-state', 'available')
    expect(root).toHaveTextContent('3 of 3 runs left')
    // Eleven o'clock UTC is two in the afternoon in Moscow.
    expect(root).toHaveTextContent(/Resets Nov 26, 2:00\sPM/)
  })

  it('goes down as the person runs a tool, in Russian too', async () => {
    function Page() {
      const { run } = useValuationRent()
      return (
        <>
          <UsageMeter />
          <button onClick={() => run(rent)}>run</button>
        </>
      )
    }
    render(<Page />, { wrapper: wrapperOf(behindProxy(), ru) })
    const meter = await vi.waitFor(() => screen.getByRole('meter', { name: 'Запуски инструментов' }))
    expect(meter).toHaveAttribute('aria-valuenow', '3')
    expect(document.body).toHaveTextContent('Лимит обновится 26 нояб., 14:00')
    act(() => screen.getByRole('button').click())
    await vi.waitFor(() => expect(meter).toHaveAttribute('aria-valuenow', '2'))
    expect(meter).toHaveAttribute('aria-valuetext', 'Осталось запусков: 2 из 3')
    expect(document.body).toHaveTextContent('Осталось запусков: 2 из 3')
  })

  it('renders nothing with the key in the page, nor where the proxy sets no cap', async () => {
    const direct = render(<UsageMeter />, {
      wrapper: ({ children }) => <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo}>{children}</ToolsProvider>,
    })
    await answered()
    expect(direct.container).toBeEmptyDOMElement()
    direct.unmount()

    limits = undefined
    const { container } = render(<UsageMeter />, { wrapper: wrapperOf(behindProxy()) })
    await vi.waitFor(() => expect(usageReads()).toBe(1))
    await answered()
    expect(container).toBeEmptyDOMElement()
  })
})

describe('the notice of the cap', () => {
  it('says when the person can run again, in their time', async () => {
    limits = { calls: 0, windowMs: HOUR }
    const error = (await behindProxy()
      .run('valuation/rent', rent)
      .catch((caught: unknown) => caught)) as ToolsError
    render(<ErrorNotice error={error} />, { wrapper: wrapperOf(behindProxy()) })
    const notice = screen.getByRole('alert')
    expect(notice).toHaveTextContent('You’ve reached your limit for now')
    expect(notice).toHaveTextContent(/You can run tools again from Nov 26, 2:00\sPM\./)
    expect(within(notice).queryByRole('button')).toBeNull()
  })
})
