// @vitest-environment node
import { describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import type { Presence, Waiting } from '../src/tools/index.js'
import { fastClient, setupMockService } from './support/service.js'

const { service } = setupMockService()
const downloads = () => service.log.filter((entry) => entry.kind === 'artifact')

// Downloading a result file is a chunk of its own, fetched at the first download: here its fetch
// fails while the device is offline, and loads once back.
const chunk = { failing: true, loads: 0 }
vi.mock('../src/client/artifacts.js', async (importActual) => {
  chunk.loads += 1
  if (chunk.failing) throw new TypeError('Failed to fetch dynamically imported module')
  return importActual()
})

describe('the download code loads at the first download', () => {
  it('refuses a link off the service before any request, whether or not the code can load', async () => {
    await expect(fastClient(MOCK_KEYS.demo).artifact('https://evil.example/artifacts/x.png')).rejects.toMatchObject({
      kind: 'validation',
      issues: [{ field: 'url', code: 'foreign-url' }],
    })
    expect(chunk.loads).toBe(0)
    expect(service.log).toHaveLength(0)
  })

  it('offline, a download waits for its code and says so, then fetches the file once back', async () => {
    const client = fastClient(MOCK_KEYS.demo)
    chunk.failing = false
    const job = await client.run('pdf/create', { objectId: 'obj_demo' })
    chunk.failing = true
    const state = { offline: true }
    const wakes = new Set<() => void>()
    const presence: Presence = {
      hidden: () => false,
      offline: () => state.offline,
      subscribe: (wake) => (wakes.add(wake), () => wakes.delete(wake)),
    }
    const waits: (Waiting | null)[] = []
    // `presence` and `onWait` reach the wait for the code through the options a call takes.
    const downloading = client.artifactFile(job.artifacts[0]!, { presence, onWait: (w: Waiting | null) => waits.push(w) } as never)
    await vi.waitFor(() => expect(waits).toEqual([{ reason: 'offline' }]))
    expect(downloads()).toHaveLength(0)
    state.offline = false
    chunk.failing = false
    for (const wake of [...wakes]) wake()
    const file = await downloading
    expect(file.blob.type).toBe('application/pdf')
    expect(waits).toEqual([{ reason: 'offline' }, null])
    expect(downloads()).toHaveLength(1)
    expect(job.artifacts[0]!.startsWith(MOCK_BASE_URL)).toBe(true)
  })
})
