// @vitest-environment node
import { describe, expect, it, vi } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import type { Waiting } from '../src/tools/index.js'
import { switchablePresence } from './support/presence.js'
import { fastClient, setupMockService } from './support/service.js'

const { service } = setupMockService()
const calls = () => service.log.filter((entry) => entry.kind === 'call')

// The input checks are a chunk of their own, fetched at the first validation: here its first
// fetch fails, as it does offline, and the next one loads it.
let loads = 0
vi.mock('../src/tools/schemas.js', async (importActual) => {
  loads += 1
  if (loads === 1) throw new TypeError('Failed to fetch dynamically imported module')
  return importActual()
})


describe('the input checks load when first needed', () => {
  it('offline, a run waits for them and says so; bad input is then refused before any request', async () => {
    const { presence, online } = switchablePresence({ offline: true })
    const waits: (Waiting | null)[] = []
    const running = fastClient(MOCK_KEYS.demo)
      .run('valuation/rent', { propertyCategory: 'flat', totalArea: -3, city: '' }, { presence, onWait: (w) => waits.push(w) })
      .catch((error: unknown) => error)
    await vi.waitFor(() => expect(waits).toEqual([{ reason: 'offline' }]))
    expect(calls()).toHaveLength(0)
    online()
    const error = await running
    expect(error).toMatchObject({ kind: 'validation', issues: [{ field: 'totalArea', code: 'not-positive' }, { field: 'city', code: 'required' }] })
    expect(waits).toEqual([{ reason: 'offline' }, null])
    expect(loads).toBe(2)
    expect(calls()).toHaveLength(0)
  })
})
