// @vitest-environment node
import { describe, expect, it, vi } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import type { Waiting } from '../src/tools/index.js'
import { retriesCutShort, switchablePresence } from './support/presence.js'
import { fastClient, setupMockService } from './support/service.js'

const { service } = setupMockService()
const calls = () => service.log.filter((entry) => entry.kind === 'call')

// The code that sends requests (their pace, retries and waits) is a chunk of its own, fetched as
// a page goes idle or at the first call: here its fetch fails, as offline, until it first loads.
const chunk = { failing: true, senders: 0 }
vi.mock('../src/client/send.js', async (importActual) => {
  if (chunk.failing) throw new TypeError('Failed to fetch dynamically imported module')
  const actual = await importActual<typeof import('../src/client/send.js')>()
  return {
    ...actual,
    createSender: (...args: Parameters<typeof actual.createSender>) => (chunk.senders++, actual.createSender(...args)),
  }
})

const badRent = { propertyCategory: 'flat', totalArea: -3, city: '' }
const rent = { propertyCategory: 'flat', totalArea: 54, city: 'Berlin' }

describe('the code that sends loads when first needed', () => {
  it('bad input is refused before any request, whether or not the code can load', async () => {
    await expect(fastClient(MOCK_KEYS.demo).run('valuation/rent', badRent)).rejects.toMatchObject({
      kind: 'validation',
      issues: [{ field: 'totalArea', code: 'not-positive' }, { field: 'city', code: 'required' }],
    })
    expect(service.log).toHaveLength(0)
  })

  it('online, a failed load is fetched again three times, saying so, then is a network error naming the tool; nothing was sent', async () => {
    const client = fastClient(MOCK_KEYS.demo)
    const { presence, waits, onWait } = retriesCutShort()
    const error = await client.run('valuation/rent', rent, { presence, onWait }).catch((failure: unknown) => failure)
    expect(waits).toEqual([1, 2, 3].flatMap((attempt) => [{ reason: 'retrying', attempt, until: expect.any(Number) }, null]))
    expect(error).toMatchObject({ kind: 'network', tool: 'valuation/rent', message: 'The code that sends requests could not be loaded.' })
    expect(service.log).toHaveLength(0)
    expect(service.bills()).toBe(0)
  })

  it('offline, a run waits for the code and says so, then is sent once and billed once', async () => {
    const { presence, online } = switchablePresence({ offline: true, onOnline: () => void (chunk.failing = false) })
    const waits: (Waiting | null)[] = []
    const running = fastClient(MOCK_KEYS.demo).run('valuation/rent', rent, { presence, onWait: (w) => waits.push(w) })
    await vi.waitFor(() => expect(waits).toEqual([{ reason: 'offline' }]))
    expect(calls()).toHaveLength(0)
    online()
    await expect(running).resolves.toMatchObject({ tool: 'valuation/rent' })
    expect(waits).toEqual([{ reason: 'offline' }, null])
    expect(calls()).toHaveLength(1)
    expect(service.bills()).toBe(1)
  })

  it('calls that wait for the code together share one sender, so one pace for the key', async () => {
    const client = fastClient(MOCK_KEYS.demo)
    const before = chunk.senders
    const results = await Promise.all(Array.from({ length: 5 }, () => client.run('valuation/rent', rent)))
    expect(results).toHaveLength(5)
    expect(chunk.senders - before).toBe(1)
    expect(calls()).toHaveLength(5)
  })
})
