import { describe, expect, it } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import { fastClient, setupMockService } from './support/service.js'

const { service } = setupMockService({ jobDurationMs: 3000 })

describe("a job's progress", () => {
  it('is absent while the job is queued, though its body says 0: a bar shows no "0%" for a job not started', async () => {
    service.freezeJobs()
    const client = fastClient(MOCK_KEYS.demo)
    const { jobId } = await client.start('pdf/create', { objectId: 'obj_demo' })
    const job = await client.job('pdf/create', jobId)
    expect(job.phase).toBe('pending')
    expect('progress' in job).toBe(false)
    service.freezeJobs(false)
  })
})
