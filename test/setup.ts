import { cleanup } from '@testing-library/react'
import { afterEach, expect, vi } from 'vitest'

// Vitest runs without globals, so Testing Library cannot register its own cleanup: unmount here.
afterEach(cleanup)
// Each test starts with an empty run journal (localStorage outlives a test's provider).
afterEach(() => globalThis.localStorage?.clear())

// Every memoryStore a test makes, the proxy's default among them, checks the key layout: one hash
// tag per key and per batch (test/support/oneTagPerBatch.ts); a test that broke it fails here.
vi.mock('../src/server/stores/memoryStore.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/server/stores/memoryStore.js')>()
  const { oneTagPerBatch } = await import('./support/oneTagPerBatch.js')
  return { ...original, memoryStore: (...args: Parameters<typeof original.memoryStore>) => oneTagPerBatch(original.memoryStore(...args)) }
})
afterEach(async () => {
  const { layoutBreaches } = await import('./support/oneTagPerBatch.js')
  const breaches = layoutBreaches.splice(0)
  expect(breaches, 'store key layout (src/server/keys.ts)').toEqual([])
})
