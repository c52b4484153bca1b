// @vitest-environment node
import { describe, expect, it, vi } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import type { Waiting } from '../src/tools/index.js'
import { retriesCutShort, switchablePresence } from './support/presence.js'
import { fastClient, setupMockService } from './support/service.js'

const { service } = setupMockService()
const logged = (kind: string) => service.log.filter((entry) => entry.kind === kind)

// The code that reads and follows jobs is a chunk of its own, fetched when a deferred call starts
// or a job is first read: here its fetch fails while the device is offline, and loads once back.
const chunk = { failing: true, loads: 0 }
vi.mock('../src/client/jobs.js', async (importActual) => {
  chunk.loads += 1
  if (chunk.failing) throw new TypeError('Failed to fetch dynamically imported module')
  return importActual()
})


describe('the code that follows jobs loads when first needed', () => {
  it('refuses an empty job id before any request, whether or not the code can load', async () => {
    await expect(fastClient(MOCK_KEYS.demo).wait('valuation/report', '')).rejects.toMatchObject({
      kind: 'validation',
      issues: [{ field: 'jobId', code: 'required' }],
    })
    expect(chunk.loads).toBe(0)
    expect(service.log).toHaveLength(0)
  })

  it('online, a failed load is fetched again, then is a network error naming the job, to wait for again; nothing is sent twice', async () => {
    const { presence, waits, onWait } = retriesCutShort()
    const error = await fastClient(MOCK_KEYS.demo)
      .run('valuation/report', { city: 'Berlin' }, { presence, onWait })
      .catch((failure: unknown) => failure)
    expect(waits.filter((wait) => wait?.reason === 'retrying')).toHaveLength(3)
    expect(error).toMatchObject({ kind: 'network', tool: 'valuation/report', jobId: expect.stringMatching(/^job_/) })
    expect(logged('call')).toHaveLength(1)
    expect(logged('poll')).toHaveLength(0)
  })

  it('with no journal, the same input run again (twice) follows the job its billed POST made: 1 POST, 1 bill', async () => {
    const client = fastClient(MOCK_KEYS.demo)
    const input = { city: 'Berlin' }
    // The chunk's own tries again (three pauses) cut short: each run ends in its network error at once.
    const { presence, onWait } = retriesCutShort()
    const first = await client.run('valuation/report', input, { presence, onWait }).catch((failure: unknown) => failure)
    expect(first).toMatchObject({ kind: 'network', jobId: expect.stringMatching(/^job_/) })
    for (let again = 0; again < 2; again++) {
      const cut = retriesCutShort()
      await expect(client.run('valuation/report', input, { presence: cut.presence, onWait: cut.onWait })).rejects.toMatchObject({ kind: 'network', jobId: (first as { jobId: string }).jobId })
    }
    expect(logged('call')).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('a deferred run is sent once; offline, its job waits for the code and says so, then is followed to its end', async () => {
    const { presence, online, offline } = switchablePresence({ onOnline: () => void (chunk.failing = false) })
    const waits: (Waiting | null)[] = []
    // The connection drops as the POST leaves: the job exists, its code cannot be fetched.
    offline()
    const running = fastClient(MOCK_KEYS.demo).run('valuation/report', { city: 'Berlin' }, { presence, onWait: (w) => waits.push(w) })
    await vi.waitFor(() => expect(waits).toEqual([{ reason: 'offline' }]))
    expect(logged('call')).toHaveLength(1)
    expect(logged('poll')).toHaveLength(0)
    online()
    const job = await running
    expect(job).toMatchObject({ tool: 'valuation/report', phase: 'succeeded' })
    expect(waits).toEqual([{ reason: 'offline' }, null])
    expect(logged('call')).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

})
