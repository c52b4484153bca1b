// @vitest-environment node
// File links go only to their owner: signed only in the answers of the tools that make files, to
// the caller's own call or job; nothing the user sent is ever signed; a guess made first locks no
// owner out; and no service address the proxy does not sign reaches a browser.
import { afterEach, describe, expect, it } from 'vitest'
import { memoryStore, type ToolsProxyOptions } from '../src/server/index.js'
import { createToolsClient, type ToolId } from '../src/tools/index.js'
import { FILE_MAKING_TOOLS } from '../src/tools/internal.js'
import { createSealer } from '../src/server/tokens/sealing.js'
import { createSigner } from '../src/server/tokens/signing.js'
import { SECRET, SERVICE, SITE, testProxy } from './support/proxy.js'

type Answer = (request: Request) => Response | Promise<Response>
let answer: Answer = () => Response.json({})
afterEach(() => {
  answer = () => Response.json({})
})
const service: typeof fetch = async (input, init) => answer(new Request(input, init))
const fileOf = (name: string) => `${SERVICE}/artifacts/${name}`
const signed = /^\/api\/tools\/artifacts\//

/** A service whose every job answer, in `status`, names its own file and the first job's (a service bug, or an echo). */
function namingTheFirstJobsFile(status: string): Answer {
  let jobs = 0
  return (request) => {
    if (request.method === 'POST') return Response.json({ jobId: `job_${++jobs}`, status: 'pending', requestId: 'req_1' }, { status: 202 })
    const jobId = new URL(request.url).pathname.split('/').pop()
    return Response.json({ jobId, status, url: fileOf(`${jobId}.pdf`), also: fileOf('job_1.pdf') })
  }
}

function proxyWith(options: Partial<ToolsProxyOptions> = {}) {
  const proxy = testProxy(service, { store: memoryStore(), ...options })
  const send = (user: string, path: string, init: RequestInit = {}) =>
    proxy.handle(new Request(`${SITE}/api/tools${path}`, { ...init, headers: { 'x-user': user, ...(init.headers as Record<string, string>) } }))
  const browser = (user: string) =>
    createToolsClient({ baseUrl: `${SITE}/api/tools`, retry: false, pollInterval: 5, headers: { 'x-user': user }, fetch: (input, init) => proxy.handle(new Request(input, init)) })
  return { proxy, send, browser }
}

describe('file links', () => {
  it('a draft listing guessed addresses gets none signed, and the owner’s job answer gets its file', async () => {
    // The service mints files in sequence; draft/extract reads a draft's text back.
    const guessed = [fileOf('file_1001.pdf'), fileOf('file_1002.pdf')]
    answer = async (request) => {
      const path = new URL(request.url).pathname
      if (path === '/v1/draft/extract') return Response.json({ text: 'Attachments:', links: guessed })
      if (request.method === 'POST') return Response.json({ jobId: 'job_1', status: 'pending', requestId: 'req_1' }, { status: 202 })
      return Response.json({ jobId: 'job_1', status: 'completed', url: guessed[0] })
    }
    const { send, browser } = proxyWith()
    const draft = await browser('mallory').run('draft/extract', { file: new File(['Attachments: …'], 'draft.txt', { type: 'text/plain' }) })
    expect((draft.data as { links: unknown[] }).links).toEqual([null, null])
    expect(JSON.stringify(draft.data)).not.toContain('file_1001')

    const job = await browser('alice').run('pdf/create', { objectId: 'obj_1' })
    const link = (job.data as { url: string }).url
    expect(link).toMatch(signed)
    expect((await send('alice', link.slice('/api/tools'.length))).status).not.toBe(404)
    // Mallory has no link to it, and alice's is hers alone.
    expect((await send('mallory', link.slice('/api/tools'.length))).status).toBe(404)
  })

  it('are signed only for the tools that make files; a partner whose service differs says which with fileTools', async () => {
    answer = () => Response.json({ text: 'Bright and calm.', image: fileOf('illustration.png') })
    const input = JSON.stringify({ prompt: 'a flat' })
    const call = async (options: Partial<ToolsProxyOptions>) => {
      const response = await proxyWith(options).send('alice', '/text/generate', { method: 'POST', body: input, headers: { 'content-type': 'application/json' } })
      return ((await response.json()) as { image: string | null }).image
    }
    expect(await call({})).toBeNull()
    const withText: ToolId[] = [...FILE_MAKING_TOOLS, 'text/generate']
    expect(await call({ fileTools: withText })).toMatch(signed)
    expect(() => proxyWith({ fileTools: ['nope' as ToolId] })).toThrow(TypeError)
  })

  it('passes no service address it does not sign: another user’s file in a job answer is removed', async () => {
    answer = namingTheFirstJobsFile('completed')
    const { browser } = proxyWith()
    const first = (await browser('alice').run('pdf/create', { objectId: 'obj_1' })).data as { url: string; also: string }
    expect(first.url).toMatch(signed)
    expect(first.also).toBe(first.url)
    const second = (await browser('bob').run('pdf/create', { objectId: 'obj_2' })).data as { url: string; also: string | null }
    expect(second.url).toMatch(signed)
    expect(second.also).toBeNull()
  })

  it('a job read that reaches the service holds its files with the answer’s write: one held for another user is removed', async () => {
    answer = namingTheFirstJobsFile('processing')
    const { send } = proxyWith()
    const read = async (user: string) => {
      const created = await send(user, '/pdf/create', { method: 'POST', body: '{"objectId":"obj_1"}', headers: { 'content-type': 'application/json' } })
      const { jobId } = (await created.json()) as { jobId: string }
      return (await (await send(user, `/pdf/create/jobs/${encodeURIComponent(jobId)}`)).json()) as { url: string; also: string | null }
    }
    const first = await read('alice')
    expect(first.url).toMatch(signed)
    expect(first.also).toBe(first.url)
    const second = await read('bob')
    expect(second.url).toMatch(signed)
    expect(second.also).toBeNull()
  })
})

describe('service addresses in any spelling', () => {
  const victim = fileOf('file_1001.pdf')
  const spellings = {
    inText: `Your report is at ${victim} today`,
    jsonInString: JSON.stringify({ url: victim }),
    escapedSlashes: JSON.stringify({ url: victim }).replace(/\//g, '\\/'),
    percentEncoded: victim.replace('/artifacts/', '/%61rtifacts/'),
    twiceEncoded: victim.replace('/artifacts/', '/%2561rtifacts/'),
    leadingSpace: ` ${victim}`,
    backslashes: victim.replace(/\//g, '\\'),
    userInfo: victim.replace('https://', 'https://u:p@'),
    upperCase: victim.toUpperCase(),
    rootRelative: '/v1/artifacts/file_1001.pdf',
  }
  const leaks = (text: string) => /file_1001|tools\.cabinet\.test/i.test(decodeURIComponent(text.replace(/\\/g, '/')))

  it('are taken out of every value, key and nested JSON text of an answer', async () => {
    // A root-relative link is a link of the service's, signed as any (see above): left out here.
    const others = Object.fromEntries(Object.entries(spellings).filter(([name]) => name !== 'rootRelative'))
    answer = () => Response.json({ ...others, keyed: { [victim]: 'x', [` ${victim}`]: 'y', kept: 'z' } })
    const { send } = proxyWith()
    const response = await send('mallory', '/pdf/create', { method: 'POST', body: '{"objectId":"obj_1"}', headers: { 'content-type': 'application/json' } })
    const text = await response.text()
    expect(leaks(text)).toBe(false)
    const body = JSON.parse(text) as Record<string, unknown>
    expect(body.inText).toBe('Your report is at  today')
    expect(body.keyed).toEqual({ kept: 'z' })
  })

  it('are taken out of the X-Request-Id and Retry-After headers and of a plain-text error', async () => {
    answer = () =>
      new Response(`upstream failed fetching ${victim.replace('https://', 'https://u:p@')}`, {
        status: 500,
        headers: { 'x-request-id': `req_${victim}`, 'retry-after': victim },
      })
    const { send } = proxyWith()
    const response = await send('mallory', '/valuation/express', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    expect(response.headers.get('x-request-id')).toBeNull()
    expect(response.headers.get('retry-after')).toBeNull()
    expect(leaks(await response.text())).toBe(false)

    answer = () => Response.json({ ok: true }, { headers: { 'x-request-id': 'req_123', 'retry-after': '5' } })
    const fine = await send('mallory', '/valuation/express', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
    expect([fine.headers.get('x-request-id'), fine.headers.get('retry-after')]).toEqual(['req_123', '5'])
  })

  it('in a request, in any spelling, make the job’s echo unsignable', async () => {
    for (const spelling of Object.values(spellings)) {
      let echoed: unknown
      answer = async (request) => {
        if (request.method === 'POST') {
          echoed = ((await request.json()) as { language: unknown }).language
          return Response.json({ jobId: 'job_9', status: 'pending', requestId: 'req_1' }, { status: 202 })
        }
        // The service reads the spelling as its own file's address and answers with it, canonical.
        return Response.json({ jobId: 'job_9', status: 'completed', echo: echoed === undefined ? null : victim })
      }
      const { send } = proxyWith()
      const created = await send('mallory', '/pdf/create', { method: 'POST', body: JSON.stringify({ objectId: 'obj_1', language: spelling }), headers: { 'content-type': 'application/json' } })
      const { jobId } = (await created.json()) as { jobId: string }
      const read = (await (await send('mallory', `/pdf/create/jobs/${encodeURIComponent(jobId)}`)).json()) as { echo: unknown }
      expect([spelling, read.echo]).toEqual([spelling, null])
    }
  })
})

describe('handles and file tokens', () => {
  const decoded = (token: string) => token.split(/[./]/).map((part) => Buffer.from(part, 'base64url').toString('latin1')).join(' ')

  it('show none of the service’s ids, and another user, a changed byte or the earlier readable form of a file token opens nothing', async () => {
    answer = (request) => {
      if (new URL(request.url).pathname.startsWith('/v1/artifacts/')) return new Response('%PDF', { headers: { 'content-type': 'application/pdf' } })
      if (request.method === 'POST') return Response.json({ jobId: 'job_4242', status: 'pending', requestId: 'req_1' }, { status: 202 })
      return Response.json({ jobId: 'job_4242', status: 'completed', url: fileOf('file_7777.pdf') })
    }
    const { send, browser } = proxyWith()
    const job = await browser('alice').run('pdf/create', { objectId: 'obj_1' })
    const link = (job.data as { url: string }).url
    const token = link.split('/').at(-2)!
    expect(decoded(job.jobId)).not.toMatch(/job_4242/)
    expect(decoded(token)).not.toMatch(/file_7777|artifacts/)
    const path = link.slice('/api/tools'.length)
    expect((await send('alice', path)).status).toBe(200)
    expect((await send('mallory', path)).status).toBe(404)
    const changed = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`
    expect((await send('alice', path.replace(token, changed))).status).toBe(404)
    // The earlier form: the path in base64, then an HMAC; not honoured any more.
    const readable = `${Buffer.from(JSON.stringify(['/artifacts/file_7777.pdf', Date.now() + 60_000, 'pdf/create'])).toString('base64url')}.${'A'.repeat(43)}`
    expect((await send('alice', path.replace(token, readable))).status).toBe(404)
  })

  it('a job handle of the earlier form (signed, readable), kept in a page’s journal, is still honoured', async () => {
    answer = (request) => (request.method === 'POST' ? Response.json({ jobId: 'job_1', status: 'pending', requestId: 'req_1' }, { status: 202 }) : Response.json({ jobId: 'job_1', status: 'processing' }))
    const { send } = proxyWith()
    const earlier = `${Buffer.from('job_1').toString('base64url')}.${await createSigner(SECRET).sign(['job', 'alice', 'pdf/create', 'job_1'])}`
    expect((await send('alice', `/pdf/create/jobs/${earlier}`)).status).toBe(200)
    expect((await send('bob', `/pdf/create/jobs/${earlier}`)).status).toBe(404)
  })

  it('seal alike with Node’s crypto and with Web Crypto (workerd), and open with either', async () => {
    const node = createSealer(createSigner(SECRET))
    const web = createSealer(createSigner(SECRET, null), null)
    const sealed = await node.seal(['job', 'alice', 'pdf/create'], 'job_1')
    expect(await web.seal(['job', 'alice', 'pdf/create'], 'job_1')).toBe(sealed)
    expect(await web.open(['job', 'alice', 'pdf/create'], sealed)).toBe('job_1')
    expect(await web.open(['job', 'bob', 'pdf/create'], sealed)).toBeUndefined()
    expect(await node.open(['job', 'bob', 'pdf/create'], sealed)).toBeUndefined()
  })
})
