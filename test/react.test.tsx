import { QueryClient } from '@tanstack/react-query'
import { act, render, renderHook, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode, useState, type ReactNode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { exampleInput, MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import {
  createToolsClient,
  QUERY_NAMESPACE,
  TOOLS,
  ToolsProvider,
  useArtifact,
  useJob,
  usePdfCreate,
  useTool,
  useValuationRent,
  type ToolId,
  type ToolPhase,
} from '../src/react/index.js'
import { toolHookName } from '../src/react/toolHookName.js'
import * as toolHooks from '../src/react/toolHooks.js'
import { useObjectUrl } from '../src/react/internal.js'
import { fakeClock } from './support/clock.js'
import { fastClient, pngFile, setupMockService } from './support/service.js'

const { service, server } = setupMockService()
const { advance, until, drive, settle } = fakeClock(server)
const FAST_POLL = 10

function wrapper({ apiKey = MOCK_KEYS.demo, queryClient }: { apiKey?: string; queryClient?: QueryClient } = {}) {
  return function Wrapper({ children }: { children?: ReactNode }) {
    return (
      <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={apiKey} pollInterval={FAST_POLL} queryClient={queryClient}>
        {children}
      </ToolsProvider>
    )
  }
}

const polls = () => service.log.filter((entry) => entry.kind === 'poll')
const posts = () => service.log.filter((entry) => entry.kind === 'call')

describe('one hook per tool', () => {
  it('names every hook after its catalogue row', () => {
    expect(Object.keys(toolHooks).sort()).toEqual(TOOLS.map((tool) => toolHookName(tool.id)).sort())
    expect(toolHookName('valuation/rent')).toBe('useValuationRent')
  })

  it.each(TOOLS.map((tool) => [toolHookName(tool.id), tool.id] as const))(
    '%s drives %s to succeeded',
    async (name, id) => {
      const useNamed = (toolHooks as Record<string, () => ReturnType<typeof useTool>>)[name]!
      const { result } = renderHook(() => useNamed(), { wrapper: wrapper() })
      expect(result.current.phase).toBe('idle')
      act(() => result.current.run(exampleInput(id as ToolId) as never))
      await until(() => expect(result.current.phase).toBe('succeeded'))
      expect(result.current.result?.tool).toBe(id)
      expect(result.current.error).toBeNull()
      expect(posts()).toHaveLength(1)
      expect(service.bills()).toBe(1)
    },
  )

  it('a synchronous tool goes idle → submitting → succeeded', async () => {
    service.setLatency(20)
    const phases: ToolPhase[] = []
    const { result } = renderHook(
      () => {
        const rent = useValuationRent()
        phases.push(rent.phase)
        return rent
      },
      { wrapper: wrapper() },
    )
    act(() => result.current.run({ propertyCategory: 'flat', totalArea: 50, city: 'Tver' }))
    await until(() => expect(result.current.phase).toBe('succeeded'))
    expect([...new Set(phases)]).toEqual(['idle', 'submitting', 'succeeded'])
    expect(result.current.job).toBeUndefined()
  })

  it('a deferred tool goes through pending and running to succeeded, with its job', async () => {
    service.setLatency(20)
    const phases: ToolPhase[] = []
    const { result } = renderHook(
      () => {
        const pdf = usePdfCreate()
        phases.push(pdf.phase)
        return pdf
      },
      { wrapper: wrapper() },
    )
    act(() => result.current.run({ objectId: 'obj_demo', language: 'en' }))
    await until(() => expect(result.current.phase).toBe('succeeded'))
    expect([...new Set(phases)]).toEqual(['idle', 'submitting', 'pending', 'running', 'succeeded'])
    expect(result.current.job?.status).toBe('completed')
    expect(result.current.result?.artifacts).toHaveLength(1)
  })

  it('a failing job ends failed with kind job-failed', async () => {
    service.setOutcome(() => 'failed')
    const { result } = renderHook(() => usePdfCreate(), { wrapper: wrapper() })
    act(() => result.current.run({ objectId: 'obj_demo' }))
    await until(() => expect(result.current.phase).toBe('failed'))
    expect(result.current.error?.kind).toBe('job-failed')
    await expect(drive(result.current.runAsync({ objectId: 'obj_demo' }))).rejects.toMatchObject({ kind: 'job-failed' })
  })

  it('a failed job is explained the way the client was told to read error bodies', async () => {
    service.setOutcome(() => 'failed')
    const client = fastClient(MOCK_KEYS.demo, { interpret: { errorMessage: () => 'the render farm is down' } })
    const { result } = renderHook(() => usePdfCreate(), {
      wrapper: ({ children }) => <ToolsProvider client={client}>{children}</ToolsProvider>,
    })
    act(() => result.current.run({ objectId: 'obj_demo' }))
    await until(() => expect(result.current.phase).toBe('failed'))
    expect(result.current.error?.message).toBe('The job failed: the render farm is down')
  })

  it('anything thrown that is not a ToolsError fails with its own kind, unexpected, not network', async () => {
    const client = fastClient(MOCK_KEYS.demo, {
      interpret: {
        artifacts: () => {
          throw new TypeError('broken override')
        },
      },
    })
    const { result } = renderHook(() => useValuationRent(), {
      wrapper: ({ children }) => <ToolsProvider client={client}>{children}</ToolsProvider>,
    })
    act(() => result.current.run({ propertyCategory: 'flat', totalArea: 50, city: 'Tver' }))
    await until(() => expect(result.current.phase).toBe('failed'))
    expect(result.current.error).toMatchObject({ kind: 'unexpected', message: 'broken override' })
  })

  it('bad input fails at once with the validation error and sends nothing', async () => {
    const { result } = renderHook(() => useValuationRent(), { wrapper: wrapper() })
    act(() => result.current.run({ propertyCategory: 'flat', totalArea: 0, city: 'Tver' }))
    await until(() => expect(result.current.phase).toBe('failed'))
    expect(result.current.error).toMatchObject({ kind: 'validation', issues: [{ field: 'totalArea' }] })
    expect(service.log).toHaveLength(0)
  })

  it('runAsync resolves with the terminal job', async () => {
    const { result } = renderHook(() => usePdfCreate(), { wrapper: wrapper() })
    const job = await drive(result.current.runAsync({ collectionId: 'col_demo' }))
    expect(job).toMatchObject({ phase: 'succeeded', tool: 'pdf/create' })
  })
})

describe('one paid call per intent', () => {
  function RentButton() {
    const rent = useValuationRent()
    return (
      <>
        <button onClick={() => rent.run({ propertyCategory: 'flat', totalArea: 33, city: 'Perm' })}>Estimate</button>
        <output>{rent.phase}</output>
      </>
    )
  }

  it('StrictMode mounts send nothing; a double click sends exactly one POST', async () => {
    service.setLatency(50)
    render(
      <StrictMode>
        <RentButton />
      </StrictMode>,
      { wrapper: wrapper() },
    )
    await advance(30)
    expect(service.log).toHaveLength(0)
    await drive(userEvent.dblClick(screen.getByRole('button', { name: 'Estimate' })))
    await until(() => screen.getByText('succeeded'))
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('retry() after a lost answer re-sends with the same Idempotency-Key and is billed once', async () => {
    service.inject({ match: { kind: 'call' }, fault: 'lost', times: 1 })
    const client = fastClient(MOCK_KEYS.demo, { retry: false, pollInterval: FAST_POLL })
    const { result } = renderHook(() => usePdfCreate(), {
      wrapper: ({ children }) => <ToolsProvider client={client}>{children}</ToolsProvider>,
    })
    act(() => result.current.run({ objectId: 'obj_demo' }))
    await until(() => expect(result.current.error?.kind).toBe('network'))
    act(() => result.current.retry())
    await until(() => expect(result.current.phase).toBe('succeeded'))
    const [first, second] = posts()
    expect(second!.idempotencyKey).toBe(first!.idempotencyKey)
    expect(service.bills()).toBe(1)
  })

  it('reset() cancels an upload in flight and returns to idle', async () => {
    const { result } = renderHook(() => useTool('photo/enhance'), { wrapper: wrapper() })
    service.setLatency(200)
    act(() => result.current.run({ file: pngFile() }))
    await until(() => expect(result.current.phase).toBe('submitting'))
    act(() => result.current.reset())
    await until(() => expect(result.current.phase).toBe('idle'))
    await advance(250)
    expect(result.current.phase).toBe('idle')
    expect(result.current.error).toBeNull()
    // The reset run is over: no job is followed and nothing is sent again.
    expect(posts().length).toBeLessThanOrEqual(1)
    expect(polls()).toHaveLength(0)
  })

  it('reports upload progress for a file tool', async () => {
    const { result } = renderHook(() => useTool('photo/enhance'), { wrapper: wrapper() })
    const file = pngFile()
    act(() => result.current.run({ file }))
    await until(() => expect(result.current.phase).toBe('succeeded'))
    expect(result.current.uploadProgress).toMatchObject({ loaded: expect.any(Number), total: expect.any(Number) })
    expect(result.current.uploadProgress!.loaded).toBe(result.current.uploadProgress!.total)
    expect(result.current.uploadProgress!.total).toBeGreaterThanOrEqual(file.size)
  })
})

describe('useJob', () => {
  async function startJob(apiKey = MOCK_KEYS.demo) {
    const job = await fastClient(apiKey).start('text/generate', { prompt: 'a listing text' })
    service.log.length = 0
    return job.jobId
  }

  it('five observers of one job cost the requests of one', async () => {
    const jobId = await startJob()
    service.freezeJobs()
    function Watcher({ index }: { index: number }) {
      const { data } = useJob('text/generate', jobId, { pollInterval: 20 })
      return <p>{`watcher ${index}: ${data?.status ?? 'loading'}`}</p>
    }
    const { unmount } = render(
      <>
        {[0, 1, 2, 3, 4].map((index) => (
          <Watcher key={index} index={index} />
        ))}
      </>,
      { wrapper: wrapper() },
    )
    await until(() => expect(screen.getAllByText(/: pending/)).toHaveLength(5))
    await advance(200)
    unmount()
    const times = polls().map((entry) => entry.at)
    // One observer's schedule: a read every 20 ms / 3 at first, then a tenth of the job's age,
    // so about 22 in the first 220 ms; five unshared observers would send five times that.
    expect(times.length).toBeGreaterThanOrEqual(5)
    expect(times.length).toBeLessThanOrEqual(26)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(5)
  })

  it('stops polling at a terminal status and after unmount', async () => {
    const jobId = await startJob()
    const { result } = renderHook(() => useJob('text/generate', jobId), { wrapper: wrapper() })
    await until(() => expect(result.current.data?.phase).toBe('succeeded'))
    const count = polls().length
    await advance(60)
    expect(polls()).toHaveLength(count)

    const running = await startJob()
    const { unmount } = renderHook(() => useJob('text/generate', running), { wrapper: wrapper() })
    await until(() => expect(polls().length).toBeGreaterThan(0))
    unmount()
    await settle()
    const atUnmount = polls().length
    await advance(80)
    expect(polls()).toHaveLength(atUnmount)
  })

  it('another key’s job is not-found, and polling stops', async () => {
    const jobId = await startJob(MOCK_KEYS.other)
    const { result } = renderHook(() => useJob('text/generate', jobId), { wrapper: wrapper() })
    await until(() => expect(result.current.error?.kind).toBe('not-found'))
    await advance(50)
    expect(polls()).toHaveLength(1)
  })

  it('goes on polling through transient 5xx, within the client’s retries', async () => {
    const jobId = await startJob()
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 4 })
    const client = fastClient(MOCK_KEYS.demo, { retry: { retries: 4, baseDelay: 1 }, pollInterval: FAST_POLL })
    const { result } = renderHook(() => useJob('text/generate', jobId), {
      wrapper: ({ children }) => <ToolsProvider client={client}>{children}</ToolsProvider>,
    })
    await until(() => expect(result.current.data?.phase).toBe('succeeded'))
    expect(polls().filter((entry) => entry.status === 500)).toHaveLength(4)
  })

  it('shows persistent 5xx after the client’s own retries: 5 reads, no retries stacked on them', async () => {
    const jobId = await startJob()
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: Infinity })
    // The default policy: 4 retries, backoff from 500 ms doubling to 8 s (with jitter, at most 7.5 s in all).
    const client = createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo, pollInterval: FAST_POLL })
    const { result } = renderHook(() => useJob('text/generate', jobId), {
      wrapper: ({ children }) => <ToolsProvider client={client}>{children}</ToolsProvider>,
    })
    const start = Date.now()
    await until(() => expect(result.current.error?.kind).toBe('server'), { step: 50, timeout: 30_000 })
    expect(Date.now() - start).toBeLessThanOrEqual(7_600)
    expect(polls()).toHaveLength(5)
    await advance(20_000, 100)
    expect(polls()).toHaveLength(5)
  })

  it('honours Retry-After on polls', async () => {
    const jobId = await startJob()
    service.inject({ match: { kind: 'poll' }, fault: 'rate-limit', retryAfterMs: 200, times: 1 })
    const { result } = renderHook(() => useJob('text/generate', jobId), { wrapper: wrapper() })
    await until(() => expect(result.current.data?.phase).toBe('succeeded'))
    const [limited, next] = polls()
    expect(limited!.status).toBe(429)
    expect(next!.at - limited!.at).toBeGreaterThanOrEqual(180)
  })

  it('does not re-render observers when a poll returns the same job', async () => {
    const jobId = await startJob()
    service.freezeJobs?.(true)
    let renders = 0
    function Status() {
      const { data } = useJob('text/generate', jobId)
      renders++
      return <p>{data?.status ?? 'loading'}</p>
    }
    render(<Status />, { wrapper: wrapper() })
    await until(() => expect(polls().length).toBeGreaterThanOrEqual(6))
    expect(renders).toBeLessThanOrEqual(4)
  })
})

describe('the key', () => {
  function SwitchableKey({ children }: { children: ReactNode }) {
    const [key, setKey] = useState<string>(MOCK_KEYS.demo)
    return (
      <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={key} pollInterval={FAST_POLL}>
        <button onClick={() => setKey(MOCK_KEYS.other)}>switch key</button>
        {children}
      </ToolsProvider>
    )
  }

  it('a new key takes effect on the next request, and the old key’s run is not shown under it', async () => {
    let pdf: ReturnType<typeof usePdfCreate> | undefined
    function Runner() {
      pdf = usePdfCreate()
      return <p>{`${pdf.phase} ${pdf.result?.artifacts.length ?? 0}`}</p>
    }
    render(
      <SwitchableKey>
        <Runner />
      </SwitchableKey>,
    )
    act(() => pdf!.run({ objectId: 'obj_demo' }))
    await until(() => screen.getByText('succeeded 1'))
    await drive(userEvent.click(screen.getByRole('button', { name: 'switch key' })))
    await until(() => screen.getByText('idle 0'))
    act(() => pdf!.run({ objectId: 'obj_other' }))
    await until(() => screen.getByText('succeeded 1'))
    expect(posts().map((entry) => entry.key)).toEqual([MOCK_KEYS.demo, MOCK_KEYS.other])
  })

  it('a job watched across a key change is read with the new key, which cannot see it', async () => {
    const { jobId } = await fastClient(MOCK_KEYS.demo).start('text/generate', {})
    function Watcher() {
      const { data, error } = useJob('text/generate', jobId)
      return <p>{error?.kind ?? data?.phase ?? 'loading'}</p>
    }
    render(
      <SwitchableKey>
        <Watcher />
      </SwitchableKey>,
    )
    await until(() => screen.getByText('succeeded'))
    await drive(userEvent.click(screen.getByRole('button', { name: 'switch key' })))
    await until(() => screen.getByText('not-found'))
    expect(polls().at(-1)).toMatchObject({ key: MOCK_KEYS.other, status: 404 })
  })

  it('is in none of the query keys, mutation keys or the rendered DOM', async () => {
    const queryClient = new QueryClient()
    const { result } = renderHook(() => usePdfCreate(), { wrapper: wrapper({ queryClient }) })
    act(() => result.current.run({ objectId: 'obj_demo' }))
    await until(() => expect(result.current.phase).toBe('succeeded'))
    const keys = [
      ...queryClient.getQueryCache().getAll().map((query) => query.queryKey),
      ...queryClient.getMutationCache().getAll().map((mutation) => mutation.options.mutationKey),
    ]
    expect(keys.length).toBeGreaterThanOrEqual(2)
    for (const key of keys) {
      expect(key![0]).toBe(QUERY_NAMESPACE)
      expect(JSON.stringify(key)).not.toContain(MOCK_KEYS.demo)
    }
    expect(document.body.innerHTML).not.toContain(MOCK_KEYS.demo)
  })

  it('a hook outside the provider says what to wrap', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined)
    expect(() => renderHook(() => useValuationRent())).toThrow(/<ToolsProvider/)
  })
})

describe('useArtifact', () => {
  it('gives an object URL and kind, revoked on URL change and on unmount', async () => {
    const created: string[] = []
    const revoked: string[] = []
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
      created.push(`blob:test/${created.length}`)
      return created.at(-1)!
    })
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url))
    const client = fastClient(MOCK_KEYS.demo)
    const image = (await drive(client.run('photo/enhance', { file: pngFile() }))).artifacts[0]!
    const pdf = (await drive(client.run('pdf/create', { objectId: 'obj_demo' }))).artifacts[0]!

    const { result, rerender, unmount } = renderHook(({ url }) => useArtifact(url), {
      wrapper: wrapper(),
      initialProps: { url: image },
    })
    await until(() => expect(result.current.kind).toBe('image'))
    expect(result.current.objectUrl).toBe(created[0])
    rerender({ url: pdf })
    await until(() => expect(result.current.kind).toBe('pdf'))
    expect(revoked).toContain(created[0])
    unmount()
    expect(revoked).toEqual(created)
    create.mockRestore()
    revoke.mockRestore()
  })
})

describe('useObjectUrl', () => {
  it('makes one URL per blob and revokes each once, on change and on unmount', () => {
    const revoked: string[] = []
    let made = 0
    const create = vi.spyOn(URL, 'createObjectURL').mockImplementation(() => `blob:test/${made++}`)
    const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url))
    const first = new Blob(['a'])
    const { result, rerender, unmount } = renderHook(({ blob }) => useObjectUrl(blob), { initialProps: { blob: first } })
    expect(result.current).toBe('blob:test/0')
    rerender({ blob: first })
    expect(made).toBe(1)
    rerender({ blob: new Blob(['b']) })
    expect(result.current).toBe('blob:test/1')
    expect(revoked).toEqual(['blob:test/0'])
    unmount()
    expect(revoked).toEqual(['blob:test/0', 'blob:test/1'])
    create.mockRestore()
    revoke.mockRestore()
  })
})

describe('a missing or malformed baseUrl', () => {
  // What a build with its setting unset, or set wrong, passes.
  const wrong: [unknown, string][] = [
    [undefined, 'not undefined'],
    ['', 'not ""'],
    ['undefined', 'not "undefined"'],
    ['null', 'not "null"'],
    ['undefined/v1', 'not "undefined/v1"'],
    ['https://tools.example /v1', 'not "https://tools.example /v1"'],
  ]

  it.each(wrong)('%j is a TypeError naming baseUrl at once, at the provider and at createToolsClient, and nothing is sent', (baseUrl, shown) => {
    const sent = vi.fn(fetch)
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const Run = () => {
      useValuationRent()
      return null
    }
    const provided = () => render(<ToolsProvider baseUrl={baseUrl as string}><Run /></ToolsProvider>)
    expect(provided).toThrow(TypeError)
    expect(provided).toThrow(/baseUrl.*/)
    expect(provided).toThrow(shown)
    expect(() => createToolsClient({ baseUrl: baseUrl as string, fetch: sent })).toThrow(new RegExp(`baseUrl.*${shown.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`))
    expect(sent).not.toHaveBeenCalled()
    vi.mocked(console.error).mockRestore()
  })

  it('takes a proxy path, and a provider given a client needs none', () => {
    expect(() => createToolsClient({ baseUrl: '/api/tools' })).not.toThrow()
    const client = createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey: MOCK_KEYS.demo })
    render(<ToolsProvider baseUrl="/api/tools"><p>proxied</p></ToolsProvider>)
    render(<ToolsProvider client={client}><p>given</p></ToolsProvider>)
    expect(screen.getByText('proxied')).toBeTruthy()
    expect(screen.getByText('given')).toBeTruthy()
  })
})
