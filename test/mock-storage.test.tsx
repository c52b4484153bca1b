// The simulated service kept in storage (`sessionStorage` in a browser): a page reload makes a new
// service, as the browser's worker does, and the runs the kit resumes still find their jobs.
import { QueryClient } from '@tanstack/react-query'
import { act, render, screen } from '@testing-library/react'
import { setupServer } from 'msw/node'
import { useEffect } from 'react'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { createMockService, MOCK_BASE_URL, MOCK_KEYS, type MockStorage } from '../src/mock/index.js'
import { ToolsProvider, usePdfCreate } from '../src/react/index.js'
import { advance, useFakeClock } from './support/clock.js'
import { fastClient } from './support/service.js'

/** A Web Storage stand-in that outlives the services made on it, as sessionStorage outlives a reload. */
function memoryStorage(): MockStorage & { size(): number } {
  const items = new Map<string, string>()
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value), size: () => items.size }
}

let storage = memoryStorage()
let service = createMockService()
const server = setupServer()
/** What a page load does: a new simulated service on the kept storage, behind the worker. */
function load(options: { kept?: boolean } = {}) {
  service = createMockService({ jobDurationMs: 20_000, storage: options.kept === false ? undefined : storage })
  server.resetHandlers(...service.handlers)
}

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
beforeEach(async () => {
  storage = memoryStorage()
  await useFakeClock()
})
afterEach(() => vi.useRealTimers())
afterAll(() => server.close())

const latest: { pdf?: ReturnType<typeof usePdfCreate> } = {}
function PdfRunner() {
  const state = usePdfCreate()
  useEffect(() => {
    latest.pdf = state
  })
  return <p data-testid="pdf">{`${state.phase} ${state.job?.jobId ?? '-'} ${state.error?.kind ?? ''}`}</p>
}
const page = () =>
  render(
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} queryClient={new QueryClient()}>
      <PdfRunner />
    </ToolsProvider>,
  )

describe('a simulated service kept in storage', () => {
  it('answers a job started before a reload, to its end and its file: billed once', async () => {
    load()
    const first = page()
    act(() => latest.pdf!.run({ objectId: 'obj_demo' }))
    await advance(3_100)
    const jobId = latest.pdf!.job!.jobId
    first.unmount()

    load()
    page()
    await advance(25_000)
    expect(screen.getByTestId('pdf').textContent).toBe(`succeeded ${jobId} `)
    const pdf = await fastClient(MOCK_KEYS.demo).artifact(latest.pdf!.result!.artifacts[0]!)
    expect(pdf.type).toBe('application/pdf')
    // The wallet was kept too: one call paid from the subscription, before the reload.
    expect(service.account('demo').subscriptionCalls).toBe(999)
  })

  it('replays a job creation sent again after a reload, not billing it twice', async () => {
    load()
    const client = fastClient(MOCK_KEYS.demo)
    const first = await client.start('pdf/create', { objectId: 'obj_demo' }, { idempotencyKey: 'intent-1' })
    load()
    const again = await client.start('pdf/create', { objectId: 'obj_demo' }, { idempotencyKey: 'intent-1' })
    expect(again.jobId).toBe(first.jobId)
    expect(service.log.at(-1)).toMatchObject({ replay: true, billed: null })
    expect(service.account('demo').subscriptionCalls).toBe(999)
  })

  it('starts afresh without storage, and after reset()', async () => {
    load()
    const { jobId } = await fastClient(MOCK_KEYS.demo).start('pdf/create', { objectId: 'obj_demo' })
    service.reset()
    load()
    await expect(fastClient(MOCK_KEYS.demo).job('pdf/create', jobId)).rejects.toMatchObject({ kind: 'not-found' })
    load({ kept: false })
    expect(service.account('demo').subscriptionCalls).toBe(1000)
    expect(storage.size()).toBe(1)
  })
})
