import { afterEach, describe, expect, it, vi } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import type { UploadProgress, Waiting } from '../src/tools/index.js'
import { switchablePresence } from './support/presence.js'
import { fastClient, pngFile, setupMockService } from './support/service.js'

const { service } = setupMockService()

// An upload whose progress is wanted goes by XMLHttpRequest, whose code is a chunk of its own,
// fetched as the file's body is built: here it fails to load, as it may offline, then loads.
const chunk = { failing: true, loads: 0 }
vi.mock('../src/client/xhr.js', async (importActual) => {
  chunk.loads += 1
  if (chunk.failing) throw new TypeError('Failed to fetch dynamically imported module')
  return importActual()
})

/** Counts the uploads that went by XMLHttpRequest. */
function countXhr() {
  const counted = { made: 0 }
  const Base = globalThis.XMLHttpRequest
  vi.stubGlobal(
    'XMLHttpRequest',
    new Proxy(Base, {
      construct(target, args: []) {
        counted.made += 1
        return Reflect.construct(target, args) as object
      },
    }),
  )
  return counted
}

afterEach(() => vi.unstubAllGlobals())

describe('the upload with progress loads when a file is first sent', () => {
  it('offline without its code, a file run waits for the connection, then sends once by fetch and reports the whole body', async () => {
    const xhr = countXhr()
    const { presence, online } = switchablePresence({ offline: true })
    // Offline, the request cannot leave either.
    service.inject({ match: { kind: 'call' }, fault: 'network' })
    const waits: (Waiting | null)[] = []
    const progress: UploadProgress[] = []
    const running = fastClient(MOCK_KEYS.demo).run(
      'photo/enhance',
      { file: pngFile() },
      { presence, onWait: (w) => waits.push(w), onUploadProgress: (p) => progress.push(p) },
    )
    await vi.waitFor(() => expect(waits).toEqual([{ reason: 'offline' }]))
    expect(service.bills()).toBe(0)
    online()
    await expect(running).resolves.toMatchObject({ tool: 'photo/enhance', phase: 'succeeded' })
    expect(service.bills()).toBe(1)
    expect(xhr.made).toBe(0)
    expect(progress.at(-1)).toEqual({ loaded: progress.at(-1)!.total, total: progress.at(-1)!.total })
    expect(progress.at(-1)!.total).toBeGreaterThan(0)
  })

  it('once its code loads, a file run goes by XMLHttpRequest, validated first and sent once', async () => {
    const xhr = countXhr()
    chunk.failing = false
    const client = fastClient(MOCK_KEYS.demo)
    await expect(client.run('photo/enhance', { file: 'not a file' } as never, { onUploadProgress: () => undefined })).rejects.toMatchObject({
      kind: 'validation',
      issues: [{ field: 'file', code: 'not-a-file' }],
    })
    expect(service.log).toHaveLength(0)
    await expect(client.run('photo/enhance', { file: pngFile() }, { onUploadProgress: () => undefined })).resolves.toMatchObject({
      phase: 'succeeded',
    })
    expect(xhr.made).toBe(1)
    expect(service.bills()).toBe(1)
  })
})
