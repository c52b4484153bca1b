import { act, render } from '@testing-library/react'
import { useEffect } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider, usePhotoEnhance, useRuns } from '../src/react/index.js'
import { advance, useFakeClock } from './support/clock.js'
import { pngFile, setupMockService } from './support/service.js'

const { service } = setupMockService({ jobDurationMs: 2_000 })
// The input checks' chunk loads in real time, which fake timers never advance: load it first.

/**
 * An upload that reports part of its body sent and then stalls, as a slow connection does:
 * what a person cancels. It records the headers it was given and never reaches the service.
 */
class StalledUpload {
  static sent: Record<string, string>[] = []
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
  responseType = ''
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  private headers: Record<string, string> = {}
  open() {}
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value
  }
  getAllResponseHeaders() {
    return ''
  }
  send(body: FormData) {
    StalledUpload.sent.push(this.headers)
    let total = 0
    body.forEach((value) => (total += typeof value === 'string' ? value.length : value.size))
    setTimeout(() => this.upload.onprogress?.({ loaded: Math.floor(total / 4), total, lengthComputable: true } as ProgressEvent), 10)
  }
  abort() {
    this.onabort?.()
  }
}

beforeEach(async () => {
  await useFakeClock()
  StalledUpload.sent = []
})
afterEach(() => {
  vi.unstubAllGlobals()
  vi.useRealTimers()
})

const latest: { photo?: ReturnType<typeof usePhotoEnhance>; runs?: ReturnType<typeof useRuns> } = {}
function PhotoRunner() {
  const photo = usePhotoEnhance()
  const runs = useRuns({ tool: 'photo/enhance' })
  useEffect(() => {
    latest.photo = photo
    latest.runs = runs
  })
  return <p>{photo.phase}</p>
}

describe('cancel before the upload body is whole', () => {
  it('aborts, forgets the run (nothing was billed), and the next run is a new intent with a new key', async () => {
    vi.stubGlobal('XMLHttpRequest', StalledUpload)
    render(
      <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo}>
        <PhotoRunner />
      </ToolsProvider>,
    )
    const file = pngFile('room.png')
    act(() => latest.photo!.run({ file }))
    await advance(100)
    expect(latest.photo!.phase).toBe('submitting')
    expect(latest.photo!.uploadProgress?.loaded).toBeLessThan(latest.photo!.uploadProgress!.total)
    // Journaled before the body left, as every paid intent is.
    expect(latest.runs!.runs).toHaveLength(1)

    act(() => latest.photo!.reset())
    await advance(100)
    expect(latest.photo!.phase).toBe('idle')
    expect(latest.runs!.runs).toHaveLength(0)
    expect(service.log).toHaveLength(0)

    // The same file again, on a connection that works: a new intent, with a key of its own.
    vi.unstubAllGlobals()
    act(() => latest.photo!.run({ file }))
    await advance(5_000)
    expect(latest.photo!.phase).toBe('succeeded')
    const [call] = service.log.filter((entry) => entry.kind === 'call')
    expect(call!.idempotencyKey).not.toBe(StalledUpload.sent[0]!['idempotency-key'])
    expect(service.bills()).toBe(1)
  })
})
