// A repeat that the service answers as a replay (`Idempotent-Replayed: true`) says so on what the
// client hands back: a script can tell its repeat was not billed again.
import { describe, expect, it } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import { fastClient, setupMockService } from './support/service.js'

const { service } = setupMockService()
const report = { objectId: 'obj_demo' }

describe('a replayed answer says so', () => {
  it('the handle and the job of a repeated POST carry replayed: true, the first ones do not; one bill', async () => {
    const client = fastClient(MOCK_KEYS.demo)
    const first = await client.start('pdf/create', report, { idempotencyKey: 'key-1' })
    expect(first).not.toHaveProperty('replayed')
    const again = await client.start('pdf/create', report, { idempotencyKey: 'key-1' })
    expect(again).toMatchObject({ jobId: first.jobId, replayed: true })
    // Another process with the same key (this client would follow the job it knows, with no POST).
    const job = await fastClient(MOCK_KEYS.demo).run('pdf/create', report, { idempotencyKey: 'key-1' })
    expect(job).toMatchObject({ jobId: first.jobId, phase: 'succeeded', replayed: true })
    expect(service.bills()).toBe(1)
  })

  it('a first run is no replay', async () => {
    const job = await fastClient(MOCK_KEYS.demo).run('pdf/create', report)
    expect(job).not.toHaveProperty('replayed')
    const result = await fastClient(MOCK_KEYS.demo).run('valuation/rent', { propertyCategory: 'flat', totalArea: 50, city: 'Kazan' })
    expect(result).not.toHaveProperty('replayed')
  })
})
