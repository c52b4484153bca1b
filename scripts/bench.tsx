// The pacing benchmark: what each scenario costs against what it must cost, on the simulated
// service with a simulated clock (minutes of jobs run in a few seconds). Prints one row per
// scenario; every figure is a ratio, 1 being the floor or the ideal:
// - requests/job ÷ floor: requests per job over 1 POST + 1 read;
// - 429 share: refused requests over all requests;
// - time ÷ ideal: when the last job was seen finished, over the earliest the rate limit and the
//   job's length allow;
// - renders/unchanged poll: renders of observers per poll that read what they already show.
import { act, render } from '@testing-library/react'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, test, vi } from 'vitest'
import { createMockService, MOCK_BASE_URL, MOCK_KEYS, type MockServiceOptions } from '../src/mock/index.js'
import { createToolsClient, ToolsProvider, useJob, type Presence } from '../src/react/index.js'
import { TabChannel } from '../test/support/tabs.js'

const server = setupServer()
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

interface Row {
  scenario: string
  'jobs ok': string
  'requests/job ÷ floor': string
  '429 share': string
  'time ÷ ideal': string
  'renders/unchanged poll': string
}

const rows: Row[] = []
const fixed = (value: number, digits = 2) => value.toFixed(digits)

/** Refusals by the limiter in front of the service, when every request is limited. */
let frontRefusals = 0

function service(options: MockServiceOptions, everyRequest?: { limit: number; windowMs: number }) {
  const mock = createMockService(options)
  frontRefusals = 0
  let window = { start: 0, count: 0 }
  // An independent limiter in front of the service: every request counts, polls included.
  const front = http.all(`${MOCK_BASE_URL}/*`, () => {
    if (!everyRequest) return
    const now = Date.now()
    if (now - window.start >= everyRequest.windowMs) window = { start: now, count: 0 }
    if (++window.count <= everyRequest.limit) return
    frontRefusals++
    const seconds = Math.max(1, Math.ceil((window.start + everyRequest.windowMs - now) / 1000))
    return new HttpResponse(null, { status: 429, headers: { 'Retry-After': String(seconds) } })
  })
  server.resetHandlers(front, ...mock.handlers)
  return mock
}

/** Advances the simulated clock in steps until every promise has settled. */
async function settle(promises: Promise<unknown>[], step = 100): Promise<PromiseSettledResult<unknown>[]> {
  let done = false
  const all = Promise.allSettled(promises).finally(() => (done = true))
  while (!done) await vi.advanceTimersByTimeAsync(step)
  return all
}

const hiddenPage: Presence = { hidden: () => true, offline: () => false, subscribe: () => () => {} }

/** `jobs` runs of `tool` spread over `tabs` clients of one key; `ideal` in ms. */
async function runs(
  scenario: string,
  { jobs, tabs = 1, jobMs, ideal, rateLimit, everyRequest, presence }: {
    jobs: number
    tabs?: number
    jobMs: number
    ideal: number
    rateLimit?: MockServiceOptions['rateLimit']
    everyRequest?: { limit: number; windowMs: number }
    presence?: Presence
  },
) {
  TabChannel.open.clear()
  const mock = service({ jobDurationMs: jobMs, rateLimit }, everyRequest)
  const clients = Array.from({ length: tabs }, () => createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo }))
  const start = Date.now()
  let end = start
  const results = await settle(
    Array.from({ length: jobs }, (_, index) =>
      clients[index % tabs]!.run('text/generate', { prompt: `#${index}` }, { presence }).finally(() => (end = Date.now())),
    ),
    jobMs > 60_000 ? 1000 : 100,
  )
  const ok = results.filter((result) => result.status === 'fulfilled').length
  const refused = mock.log.filter((entry) => entry.status === 429).length + frontRefusals
  const requests = mock.log.length + frontRefusals
  rows.push({
    scenario,
    'jobs ok': `${ok}/${jobs} (billed ${mock.bills()})`,
    'requests/job ÷ floor': `${fixed(requests / jobs / 2)} (${fixed(requests / jobs, 1)} req)`,
    '429 share': `${fixed((100 * refused) / requests, 1)}%`,
    'time ÷ ideal': `${fixed((end - start) / ideal)} (${fixed((end - start) / 1000, 1)} s)`,
    'renders/unchanged poll': '–',
  })
}

async function observers(count: number) {
  const mock = service({ jobDurationMs: 60_000 })
  const client = createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo })
  const [handle] = await settle([client.start('text/generate', { prompt: 'shared' })])
  const { jobId } = (handle as PromiseFulfilledResult<{ jobId: string }>).value
  let renders = 0
  function Observer() {
    const { data } = useJob('text/generate', jobId)
    renders++
    return <p>{data?.status ?? '…'}</p>
  }
  const start = Date.now()
  const view = render(
    <ToolsProvider client={client}>
      {Array.from({ length: count }, (_, index) => (
        <Observer key={index} />
      ))}
    </ToolsProvider>,
  )
  // A stretch where the job stands still: every poll in it reads what is already shown.
  await act(() => vi.advanceTimersByTimeAsync(5000))
  mock.freezeJobs()
  const [rendersBefore, pollsBefore] = [renders, mock.log.length]
  await act(() => vi.advanceTimersByTimeAsync(60_000))
  const unchanged = mock.log.length - pollsBefore
  const idle = renders - rendersBefore
  mock.freezeJobs(false)
  let end = start
  while (!view.container.textContent!.includes('completed')) {
    await act(() => vi.advanceTimersByTimeAsync(500))
    end = Date.now()
  }
  view.unmount()
  rows.push({
    scenario: `${count} observers of one 60 s job (60 s frozen)`,
    'jobs ok': '1/1',
    'requests/job ÷ floor': `${fixed(mock.log.length / 2)} (${mock.log.length} req)`,
    '429 share': '0.0%',
    'time ÷ ideal': `${fixed((end - start) / 120_000)} (${fixed((end - start) / 1000, 1)} s)`,
    'renders/unchanged poll': `${fixed(idle / Math.max(1, unchanged))} (${idle} renders, ${unchanged} polls)`,
  })
}

test('pacing benchmark', async () => {
  const real = performance.now()
  vi.useFakeTimers()
  vi.stubGlobal('BroadcastChannel', TabChannel)
  const limit = { limit: 10, windowMs: 1000 }
  await runs('1 job of 10 s', { jobs: 1, jobMs: 10_000, ideal: 10_000 })
  await runs('1 job of 60 s', { jobs: 1, jobMs: 60_000, ideal: 60_000 })
  await runs('1 job of 10 min', { jobs: 1, jobMs: 600_000, ideal: 600_000 })
  await runs('1 job of 10 min, hidden tab', { jobs: 1, jobMs: 600_000, ideal: 600_000, presence: hiddenPage })
  // 200 calls at 10 a second: the last is taken in the 20th window, and its job takes 2 s.
  await runs('200 jobs of 2 s, 10 calls/s', { jobs: 200, jobMs: 2000, ideal: 21_000, rateLimit: limit })
  // Every request counted: 400 at least (a call and a read per job) at 10 a second.
  await runs('200 jobs of 2 s, 10 requests/s of any kind', { jobs: 200, jobMs: 2000, ideal: 40_000, everyRequest: limit })
  await runs('3 tabs × 60 jobs of 2 s, 10 calls/s', { jobs: 180, tabs: 3, jobMs: 2000, ideal: 19_000, rateLimit: limit })
  await observers(20)
  vi.useRealTimers()
  vi.unstubAllGlobals()
  console.log('\nPacing benchmark (simulated clock)\n')
  console.table(rows)
  console.log(`\n${fixed((performance.now() - real) / 1000, 1)} s of real time\n`)
})
