// @vitest-environment node
// The proxy's cost per job read, in process, against a service that answers at once: what the
// proxy itself spends (routing, the handle's check, the store, rewriting the answer). Prints
// microseconds per read for reads of many jobs (each read goes to the service) and for a flood
// of reads of one job (one read reaches the service; the rest share it).
import { test } from 'vitest'
import { createToolsProxy } from '../src/server/index.js'
import { TOOLS } from '../src/tools/index.js'

const SERVICE = 'https://tools.cabinet.test/v1'
const SITE = 'https://partner.test/api/tools'

test('proxy benchmark', async () => {
  let serviceReads = 0
  const proxy = createToolsProxy({
    baseUrl: SERVICE,
    apiKey: 'server-key',
    basePath: '/api/tools',
    secret: 'a-bench-secret-of-at-least-thirty-two-characters',
    authorize: () => ({ user: 'u_1', tools: TOOLS.map((tool) => tool.id) }),
    rate: { requests: 1e9, perMs: 1000 },
    fetch: async (input, init) => {
      const url = new URL(String(input))
      if (init?.method === 'POST') return Response.json({ jobId: `job_${Math.random().toString(16).slice(2)}`, status: 'pending', requestId: 'req_1' }, { status: 202 })
      serviceReads++
      const jobId = url.pathname.split('/').pop()
      return Response.json({ jobId, status: 'processing', progress: 0.5, preview: `${SERVICE}/artifacts/${jobId}/preview.png` })
    },
  })
  const post = () =>
    proxy.handle(new Request(`${SITE}/pdf/create`, { method: 'POST', body: '{"objectId":"obj_1"}', headers: { 'content-type': 'application/json' } }))
  const handles = await Promise.all(Array.from({ length: 2000 }, async () => ((await (await post()).json()) as { jobId: string }).jobId))
  const read = (handle: string) => proxy.handle(new Request(`${SITE}/pdf/create/jobs/${encodeURIComponent(handle)}`))

  const time = async (reads: (() => Promise<Response>)[]) => {
    for (const one of reads.slice(0, 200)) await (await one()).text() // warm
    const start = performance.now()
    for (const one of reads) await (await one()).text()
    return ((performance.now() - start) * 1000) / reads.length
  }
  serviceReads = 0
  const many = await time(handles.map((handle) => () => read(handle)))
  const manyReads = serviceReads
  serviceReads = 0
  const one = await time(Array.from({ length: 2000 }, () => () => read(handles[0]!)))
  console.log('\nProxy benchmark (in process, an instant service)\n')
  console.table([
    { scenario: 'reads of 2,000 jobs, each once', 'µs per read': many.toFixed(0), 'service reads': manyReads },
    { scenario: '2,000 reads of one job', 'µs per read': one.toFixed(0), 'service reads': serviceReads },
  ])
})
