import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createMockService, MOCK_BASE_URL, type MockServiceOptions } from '../../src/mock/index.js'
import { createToolsClient, type ToolsClientOptions } from '../../src/tools/index.js'

/** Retries and polls in milliseconds, so the suite runs fast. */
export const FAST: Partial<ToolsClientOptions> = { retry: { baseDelay: 1, maxDelay: 5 }, pollIntervalMs: 5 }

/** The simulated service on msw/node for one test file, reset after each test. */
export function setupMockService(options: MockServiceOptions = {}) {
  const service = createMockService({ jobDurationMs: 30, ...options })
  const server = setupServer(...service.handlers)
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => {
    server.resetHandlers()
    service.reset()
  })
  afterAll(() => server.close())
  return { service, server }
}

export function fastClient(apiKey: ToolsClientOptions['apiKey'], options: Partial<ToolsClientOptions> = {}) {
  return createToolsClient({ baseUrl: MOCK_BASE_URL, apiKey, ...FAST, ...options })
}

/** A real 1×1 PNG, for file tools. */
export function pngFile(name = 'room.png'): File {
  const bytes = Uint8Array.from(
    atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
    (char) => char.charCodeAt(0),
  )
  return new File([bytes], name, { type: 'image/png' })
}

export function pdfFile(name = 'contract.pdf'): File {
  return new File(['%PDF-1.4\n%%EOF\n'], name, { type: 'application/pdf' })
}

export function mp4File(name = 'tour.mp4'): File {
  return new File([new Uint8Array(64)], name, { type: 'video/mp4' })
}
