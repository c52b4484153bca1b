// @vitest-environment node
// Every Cloudflare Workers block of docs/ (a module whose default export's `fetch` takes `env`),
// bundled as a partner's bundler would and run in workerd through Miniflare, with a spend cap of
// 3 calls, as the two Workers of docs/cloudflare.md's wrangler.jsonc blocks (the second bound to the
// first's namespace by `script_name`): the 4th is refused and `/usage` counts 3. A Worker that
// made its proxy, or its store, per request would let every call through and count none.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Miniflare } from 'miniflare'
import ts from 'typescript'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { exampleInput, MOCK_KEYS } from '../src/mock/index.js'
import { blocks, text, type DocBlock } from './support/docs.js'
import { listenMockService } from './support/http.js'
import { ENTRIES, root } from './support/program.js'
import { COMPATIBILITY_DATE } from './support/workerd.js'

const CAP = 3
const dir = join(root, 'node_modules/.cache/docs-workers')
let mock: Awaited<ReturnType<typeof listenMockService>>
beforeAll(async () => {
  mock = await listenMockService()
})
afterAll(async () => {
  await mock?.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A Worker's `wrangler.jsonc`, as far as the proxy needs it. */
interface WranglerConfig {
  name: string
  vars?: Record<string, string>
  durable_objects: { bindings: { name: string; class_name: string; script_name?: string }[] }
  migrations?: { new_sqlite_classes?: string[] }[]
}
/** docs/cloudflare.md's `wrangler.jsonc` blocks: the first Worker's, then the second's on the same namespace. */
const wrangler = [...text['docs/cloudflare.md']!.matchAll(/```jsonc\n([\s\S]*?)```/g)].map(
  (match) => ts.parseConfigFileTextToJson('wrangler.jsonc', match[1]!).config as WranglerConfig,
)

const workerBlocks = blocks.filter((block) => /export default \{[\s\S]*fetch\(request: Request, env\b/.test(block.code))

/** The block as a Worker module: the cap added to its proxy's options, the partner's session stand-ins defined, bundled into one file. */
async function bundle(block: DocBlock): Promise<string> {
  const source = join(dir, `${block.id}.ts`)
  mkdirSync(dir, { recursive: true })
  const capped = block.code.replace(/createToolsProxy\(\{/, `createToolsProxy({ limits: { calls: ${CAP}, windowMs: 86_400_000 },`)
  expect(capped, block.id).not.toBe(block.code)
  // The partner's session: the user is the `x-user` header, with the tools the docs name.
  const session = `
Object.assign(globalThis, {
  getSessionUser: async (request: Request) => (request.headers.get('x-user') ? { id: request.headers.get('x-user') } : null),
  sessionOf: async (request: Request) => (request.headers.get('x-user') ? { user: request.headers.get('x-user'), tools: ['pdf/create'] } : null),
})
`
  writeFileSync(source, capped + session)
  const outDir = join(dir, block.id)
  const alias = Object.entries(ENTRIES).map(([find, file]) => ({ find: new RegExp(`^${find}$`), replacement: join(root, file) }))
  await build({
    configFile: false,
    logLevel: 'silent',
    resolve: { alias },
    ssr: { noExternal: true, target: 'webworker' },
    build: { ssr: source, outDir, emptyOutDir: true, rolldownOptions: { output: { entryFileNames: 'worker.mjs', codeSplitting: false } } },
  })
  return join(outDir, 'worker.mjs')
}

describe('the Workers blocks of docs/, run in workerd', () => {
  it('are found', () => {
    expect(workerBlocks.map((block) => block.page)).toEqual(expect.arrayContaining(['docs/server.md', 'docs/cloudflare.md']))
  })

  it('say where the settings go and how a second Worker binds the same namespace', () => {
    const [first, second] = wrangler
    expect(first?.vars).toHaveProperty('TOOLS_BASE_URL')
    expect(first?.durable_objects.bindings).toEqual([{ name: 'TOOLS_STATE', class_name: 'ToolsProxyState' }])
    expect(first?.migrations?.[0]?.new_sqlite_classes).toEqual(['ToolsProxyState'])
    expect(second?.durable_objects.bindings).toEqual([{ name: 'TOOLS_STATE', class_name: 'ToolsProxyState', script_name: first?.name }])
    expect(second?.migrations).toBeUndefined()
    expect(text['docs/cloudflare.md']).toMatch(/`wrangler dev` reads them instead from a `\.dev\.vars` file/)
  })

  it.each(workerBlocks.map((block) => [block.id, block] as const))('%s keeps a cap of 3 across requests and isolates', async (_id, block) => {
    const scriptPath = await bundle(block)
    const bindings = { TOOLS_BASE_URL: mock.baseUrl, TOOLS_API_KEY: MOCK_KEYS.demo, TOOLS_PROXY_SECRET: 'a-docs-secret-of-at-least-thirty-two-characters' }
    // The two Workers of docs/cloudflare.md's wrangler.jsonc blocks, each an isolate of its own: the second binds the first's namespace by `script_name`.
    const mf = new Miniflare({
      workers: wrangler.map((config) => ({
        name: config.name,
        modules: true,
        scriptPath,
        compatibilityDate: COMPATIBILITY_DATE,
        bindings: { ...config.vars, ...bindings },
        durableObjects: Object.fromEntries(
          config.durable_objects.bindings.map((each) => [each.name, { className: each.class_name, useSQLite: true, ...(each.script_name && { scriptName: each.script_name }) }]),
        ),
      })),
    })
    try {
      const user = `pat-${block.id}`
      type Fetch = (url: string, init?: RequestInit) => Promise<Response>
      const workerOf = async (name: string) => (await mf.getWorker(name)).fetch as unknown as Fetch
      const [one, two] = [await workerOf(wrangler[0]!.name), await workerOf(wrangler[1]!.name)]
      const send = (worker: Fetch) =>
        worker('https://partner.test/api/tools/pdf/create', {
          method: 'POST',
          body: JSON.stringify(exampleInput('pdf/create')),
          headers: { 'content-type': 'application/json', 'x-user': user },
        })
      const statuses: number[] = []
      for (const worker of [one, two, one, two]) statuses.push((await send(worker)).status)
      expect(statuses).toEqual([202, 202, 202, 402])
      const usage = await (await one('https://partner.test/api/tools/usage', { headers: { 'x-user': user } })).json()
      expect(usage).toMatchObject({ used: CAP, limit: CAP })
    } finally {
      await mf.dispose()
    }
  }, 120_000)
})
