// An upload cut off midway (the connection lost at half its bytes) starts again from its first
// byte with the same Idempotency-Key once it can, and its progress says it did (`restarts`): a bar
// going back to 0 has a reason. Billed once, for a deferred and for a synchronous file tool.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import type { UploadProgress, Waiting } from '../src/tools/index.js'
import { switchablePresence } from './support/presence.js'
import { fastClient, pdfFile, pngFile, setupMockService } from './support/service.js'

const { service } = setupMockService()

/**
 * XMLHttpRequest as a flaky connection gives it: the first upload sends half its body and is cut
 * (calling `onCut` first, as the connection drops); every later one goes through to the service.
 */
class FlakyUpload {
  static keys: string[] = []
  static onCut = () => {}
  readonly upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null }
  responseType = ''
  status = 0
  statusText = ''
  response: ArrayBuffer | null = null
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  onabort: (() => void) | null = null
  private target = { method: 'POST', url: '' }
  private headers = new Headers()
  private answer = new Headers()
  open(method: string, url: string) {
    this.target = { method, url }
  }
  setRequestHeader(name: string, value: string) {
    this.headers.set(name, value)
  }
  getAllResponseHeaders() {
    return [...this.answer].map(([name, value]) => `${name}: ${value}`).join('\r\n')
  }
  send(body: FormData) {
    const first = FlakyUpload.keys.length === 0
    FlakyUpload.keys.push(this.headers.get('idempotency-key')!)
    const total = [...body.values()].reduce((sum, part) => sum + (typeof part === 'string' ? part.length : part.size), 0)
    const progress = (loaded: number) => this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent)
    setTimeout(async () => {
      progress(Math.floor(total / 2))
      if (first) return (FlakyUpload.onCut(), this.onerror?.())
      const response = await fetch(this.target.url, { method: this.target.method, headers: this.headers, body })
      progress(total)
      Object.assign(this, { status: response.status, statusText: response.statusText, response: await response.arrayBuffer(), answer: response.headers })
      this.onload?.()
    })
  }
  abort() {
    this.onabort?.()
  }
}

afterEach(() => {
  vi.unstubAllGlobals()
  FlakyUpload.keys = []
  FlakyUpload.onCut = () => {}
})

const calls = () => service.log.filter((entry) => entry.kind === 'call')

describe('an upload cut off midway', () => {
  it('offline, waits for the connection, then starts again with its key, its progress saying so: billed once', async () => {
    vi.stubGlobal('XMLHttpRequest', FlakyUpload)
    const { presence, online, offline } = switchablePresence()
    FlakyUpload.onCut = offline
    const progress: UploadProgress[] = []
    const waits: (Waiting | null)[] = []
    const running = fastClient(MOCK_KEYS.demo).run(
      'photo/enhance',
      { file: pngFile() },
      { presence, onUploadProgress: (p) => progress.push(p), onWait: (w) => waits.push(w) },
    )
    await vi.waitFor(() => expect(waits).toContainEqual({ reason: 'offline' }))
    const [half] = progress
    expect(half!.loaded).toBeLessThan(half!.total)
    expect(calls()).toHaveLength(0)
    online()
    await expect(running).resolves.toMatchObject({ tool: 'photo/enhance', phase: 'succeeded' })
    expect(progress.slice(1)).toEqual([
      { loaded: half!.loaded, total: half!.total, restarts: 1 },
      { loaded: half!.total, total: half!.total, restarts: 1 },
    ])
    expect(new Set(FlakyUpload.keys).size).toBe(1)
    expect(FlakyUpload.keys).toHaveLength(2)
    expect(calls()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('a synchronous file tool cut midway starts again too (nothing reached the service): billed once', async () => {
    vi.stubGlobal('XMLHttpRequest', FlakyUpload)
    const progress: UploadProgress[] = []
    const result = fastClient(MOCK_KEYS.demo).run('draft/extract', { file: pdfFile() }, { onUploadProgress: (p) => progress.push(p) })
    await expect(result).resolves.toMatchObject({ tool: 'draft/extract' })
    expect(progress.at(-1)).toMatchObject({ restarts: 1 })
    expect(FlakyUpload.keys).toHaveLength(2)
    expect(service.bills()).toBe(1)
  })
})
