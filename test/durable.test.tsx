import { QueryClient } from '@tanstack/react-query'
import { act, render, renderHook, screen } from '@testing-library/react'
import { useEffect, useState, type ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import {
  isToolsError,
  ToolsProvider,
  useArtifact,
  useJob,
  usePdfCreate,
  usePhotoEnhance,
  type ToolsClientOptions,
  type ToolsError,
} from '../src/react/index.js'
import { fastClient, pngFile, setupMockService } from './support/service.js'

// A 20-second job, as pdf/create takes on the real service; polled every 3 s, the default.
const { service } = setupMockService({ jobDuration: 20_000 })

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
})
afterEach(() => vi.useRealTimers())

/**
 * Moves the fake clock (the mock's job clock reads it too) in small steps, letting the event loop
 * turn between them (no real time passes) so intercepted requests are answered as they would be.
 */
async function advance(ms: number) {
  for (let left = ms, turns = 0; left > 0 || turns < 10; left -= 50, turns++) {
    // One act per step, so React commits and runs effects as it would between two frames.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(Math.max(1, Math.min(50, left)))
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
    })
  }
}

const posts = () => service.log.filter((entry) => entry.kind === 'call')
const polls = () => service.log.filter((entry) => entry.kind === 'poll')

function Provider({
  apiKey = MOCK_KEYS.demo,
  queryClient,
  children,
}: {
  apiKey?: ToolsClientOptions['apiKey']
  queryClient?: QueryClient
  children?: ReactNode
}) {
  return (
    <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={apiKey} queryClient={queryClient}>
      {children}
    </ToolsProvider>
  )
}

let pdf: ReturnType<typeof usePdfCreate>
function PdfRunner() {
  pdf = usePdfCreate()
  return <p data-testid="pdf">{`${pdf.phase} ${pdf.job?.jobId ?? '-'} ${pdf.result?.artifacts.length ?? 0}`}</p>
}
const shown = () => screen.getByTestId('pdf').textContent

describe('a reload mid-job', () => {
  it('shows the same job on a fresh provider and cache, and follows it to its end: 1 POST, billed 1', async () => {
    const first = render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    act(() => pdf.run({ objectId: 'obj_demo' }))
    await advance(3_100)
    const jobId = pdf.job?.jobId
    expect(jobId).toMatch(/^job_/)
    expect(shown()).toMatch(/^(pending|running) job_/)
    first.unmount()

    render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    await advance(1_000)
    expect(shown()).toMatch(new RegExp(`^(pending|running) ${jobId}`))
    await advance(20_000)
    expect(shown()).toBe(`succeeded ${jobId} 1`)
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })
})

describe('an unmount while the POST is out', () => {
  it('re-sends the unanswered POST with the same key on the next mount: a replay, billed 1', async () => {
    // The service takes the call and bills it, but the answer never reaches the page.
    service.inject({ match: { kind: 'call' }, fault: 'held' })
    const first = render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    act(() => pdf.run({ objectId: 'obj_demo' }))
    await advance(500)
    expect(shown()).toBe('submitting - 0')
    first.unmount()

    render(
      <Provider queryClient={new QueryClient()}>
        <PdfRunner />
      </Provider>,
    )
    await advance(25_000)
    expect(shown()).toMatch(/^succeeded job_\w+ 1$/)
    const [sent, resent] = posts()
    expect(posts()).toHaveLength(2)
    expect(resent).toMatchObject({ idempotencyKey: sent!.idempotencyKey, replay: true, billed: null })
    expect(service.bills()).toBe(1)
  })

  it('leaves no poll running for a job nobody watches; the next mount takes it up', async () => {
    service.setLatency(1_000)
    const first = render(
      <Provider>
        <PdfRunner />
      </Provider>,
    )
    act(() => pdf.run({ objectId: 'obj_demo' }))
    await advance(200)
    first.unmount()
    await advance(10_000)
    expect(posts()).toHaveLength(1)
    expect(polls()).toHaveLength(0)

    service.setLatency(0)
    render(
      <Provider>
        <PdfRunner />
      </Provider>,
    )
    await advance(15_000)
    expect(shown()).toMatch(/^succeeded job_\w+ 1$/)
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })
})

describe('a job whose reads keep failing (case 2)', () => {
  it('client.run rejects naming the job, and client.wait takes it up: billed 1', async () => {
    const client = fastClient(MOCK_KEYS.demo, { pollInterval: 1_000 })
    service.inject({ match: { kind: 'poll' }, fault: 'rate-limit', times: 5 })
    const outcome = client.run('pdf/create', { objectId: 'obj_demo' }).catch((error: unknown) => error as ToolsError)
    await advance(10_000)
    const error = await outcome
    expect(isToolsError(error) && error.kind).toBe('rate-limit')
    expect(error).toMatchObject({ tool: 'pdf/create', jobId: expect.stringMatching(/^job_/) })

    const done = client.wait('pdf/create', (error as ToolsError).jobId!)
    await advance(25_000)
    await expect(done).resolves.toMatchObject({ phase: 'succeeded' })
    expect(posts()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('running the same input again in the hook follows the same job rather than paying for another', async () => {
    render(
      <Provider>
        <PdfRunner />
      </Provider>,
    )
    // Every read of the job fails: five tries per read, four reads.
    service.inject({ match: { kind: 'poll' }, fault: 'server-error', times: 20 })
    act(() => pdf.run({ objectId: 'obj_demo' }))
    await advance(60_000)
    expect(pdf.phase).toBe('failed')
    expect(pdf.error?.kind).toBe('server')
    const jobId = pdf.current?.jobId
    expect(jobId).toMatch(/^job_/)

    act(() => pdf.run({ objectId: 'obj_demo' }))
    await advance(5_000)
    expect(shown()).toBe(`succeeded ${jobId} 1`)
    expect(posts()).toHaveLength(2)
    expect(posts()[1]).toMatchObject({ replay: true, idempotencyKey: posts()[0]!.idempotencyKey })
    expect(service.bills()).toBe(1)
  })
})
