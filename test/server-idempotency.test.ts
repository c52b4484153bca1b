// @vitest-environment node
// One Idempotency-Key is one call of one tool: however the service scopes or forgets its keys, a
// person's calls bill within their cap, and a true replay is never counted twice.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { memoryStore } from '../src/server/index.js'
import { exampleInput } from '../src/mock/examples.js'
import { TOOLS, type ToolId } from '../src/tools/index.js'
import { LONG_WINDOW, SITE, testProxy } from './support/proxy.js'

afterEach(() => {
  vi.useRealTimers()
})

/** A stand-in service that remembers each Idempotency-Key for `memoryMs` (Infinity: for ever), per path or across paths. */
function keyedService({ perPath, memoryMs }: { perPath: boolean; memoryMs: number }) {
  const seen = new Map<string, { jobId: string; at: number }>()
  let bills = 0
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const path = new URL(request.url).pathname
    if (request.method !== 'POST') return Response.json({ jobId: path.split('/').pop(), status: 'processing' })
    const key = request.headers.get('idempotency-key')
    const name = perPath ? `${path} ${key}` : String(key)
    const known = key ? seen.get(name) : undefined
    if (known && Date.now() - known.at < memoryMs) return Response.json({ jobId: known.jobId, status: 'pending', requestId: 'req_1' }, { status: 202 })
    const jobId = `job_${++bills}`
    if (key) seen.set(name, { jobId, at: Date.now() })
    return Response.json({ jobId, status: 'pending', requestId: 'req_1' }, { status: 202 })
  }
  return { fetch, bills: () => bills }
}

function proxyOver(service: ReturnType<typeof keyedService>, calls: number) {
  const proxy = testProxy(service.fetch, { store: memoryStore(), limits: { calls, windowMs: LONG_WINDOW } })
  const start = (tool: ToolId, key: string) =>
    proxy.handle(
      new Request(`${SITE}/api/tools/${tool}`, {
        method: 'POST',
        body: JSON.stringify(exampleInput(tool)),
        headers: { 'x-user': 'mallory', 'content-type': 'application/json', 'idempotency-key': key },
      }),
    )
  const used = async () => ((await (await proxy.handle(new Request(`${SITE}/api/tools/usage`, { headers: { 'x-user': 'mallory' } }))).json()) as { used: number }).used
  return { start, used }
}

const jsonJobTools = TOOLS.filter((tool) => tool.mode === 'deferred' && tool.body === 'json').map((tool) => tool.id)

describe('one Idempotency-Key across tools', () => {
  it('with a service that keeps keys per path, one key on five tools under a cap of 1 bills one job', async () => {
    expect(jsonJobTools.length).toBeGreaterThanOrEqual(5)
    const service = keyedService({ perPath: true, memoryMs: Infinity })
    const { start, used } = proxyOver(service, 1)
    const statuses = []
    for (const tool of jsonJobTools.slice(0, 5)) statuses.push((await start(tool, 'one-key')).status)
    expect(service.bills()).toBe(1)
    expect(statuses).toEqual([202, 402, 402, 402, 402])
    expect(await used()).toBe(1)
  })

  it('with a service that keeps keys across paths, the key sent on names the tool: still one job per call, within the cap', async () => {
    const service = keyedService({ perPath: false, memoryMs: Infinity })
    const { start, used } = proxyOver(service, 2)
    const answers = await Promise.all(['text/generate', 'content/generate'].map(async (tool) => (await (await start(tool as ToolId, 'k')).json()) as { jobId: string }))
    expect(service.bills()).toBe(2)
    expect(new Set(answers.map((answer) => answer.jobId)).size).toBe(2)
    expect(await used()).toBe(2)
  })

  it('with a service that forgets keys after a second, six sends of one key under a cap of 2 bill two jobs; a replay it still knows is free', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const service = keyedService({ perPath: true, memoryMs: 1000 })
    const { start, used } = proxyOver(service, 2)
    // A replay within the service's memory: answered, one bill, one counted.
    expect((await start('text/generate', 'k')).status).toBe(202)
    expect((await start('text/generate', 'k')).status).toBe(202)
    expect(service.bills()).toBe(1)
    expect(await used()).toBe(1)
    for (let i = 0; i < 4; i++) {
      vi.advanceTimersByTime(1500)
      await start('text/generate', 'k')
    }
    expect(service.bills()).toBe(2)
    expect(await used()).toBe(2)
    // Over the cap, a repeat of the last job is still answered, from the store: the same job, nothing billed.
    const replay = await start('text/generate', 'k')
    expect(replay.status).toBe(202)
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(service.bills()).toBe(2)
  })
})
