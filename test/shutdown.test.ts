// @vitest-environment node
// docs/server.md's graceful shutdown, run as a partner would: its block alone in a Node process on
// a Redis Cluster, sent SIGTERM after a proxied call and an event stream (so its store subscribed).
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { build } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MOCK_KEYS } from '../src/mock/index.js'
import { blocks } from './support/docs.js'
import { listenMockService } from './support/http.js'
import { ENTRIES, root } from './support/program.js'
import { startRedisCluster } from './support/redisCluster.js'

const shutdown = blocks.find((block) => block.page === 'docs/server.md' && block.code.includes("process.once('SIGTERM'"))!
const outDir = join(root, 'node_modules/.cache/tools-server-shutdown')

/** The block as a JavaScript module (the package's sources bundled in, redis and srvx from node_modules), the service's URL put in, printing its own URL. */
async function childScript(name: string, code: string, baseUrl: string) {
  const contents = [
    "Object.assign(globalThis, { getSessionUser: async () => ({ id: 'u_1' }) })",
    code
      .replace("'@cabinet/tools-react/server'", JSON.stringify(join(root, ENTRIES['@cabinet/tools-react/server'])))
      .replace("'https://tools.example.com/v1'", JSON.stringify(baseUrl))
      .replace('port: 3000', "port: 0, hostname: '127.0.0.1', silent: true"),
    'await server.ready()',
    "console.log(server.url!.replace(/\\/+$/, ''))",
  ].join('\n')
  mkdirSync(outDir, { recursive: true })
  const outfile = join(outDir, `${name}.mjs`)
  await build({ stdin: { contents, loader: 'ts', resolveDir: root }, bundle: true, format: 'esm', platform: 'node', packages: 'external', outfile, logLevel: 'error' })
  return outfile
}

/** How the child ended within `ms` (`'still running'` past it): a clean exit is code 0, no signal. */
const exited = (child: ChildProcess, ms: number) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null } | 'still running'>((resolve) => {
    const timer = setTimeout(() => resolve('still running'), ms)
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal })
    })
  })

describe('docs/server.md: a server on a Redis Cluster, on SIGTERM', () => {
  let cluster: Awaited<ReturnType<typeof startRedisCluster>>
  let service: Awaited<ReturnType<typeof listenMockService>>
  const children: ChildProcess[] = []

  beforeAll(async () => {
    ;[cluster, service] = await Promise.all([startRedisCluster(), listenMockService()])
  }, 90_000)
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    await Promise.all([cluster?.stop(), service?.close()])
  })

  /** Starts the block, makes one proxied call and opens one event stream through it, then sends SIGTERM; how it ended within `ms`. */
  async function runThenTerminate(name: string, code: string, ms: number) {
    const script = await childScript(name, code, service.baseUrl)
    const child = spawn(process.execPath, [script], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, REDIS_URL: cluster.urls[0], TOOLS_API_KEY: MOCK_KEYS.demo, TOOLS_PROXY_SECRET: 'a-docs-secret-of-at-least-thirty-two-characters' },
    })
    children.push(child)
    const url = (await createInterface({ input: child.stdout! })[Symbol.asyncIterator]().next()).value as string
    const call = await fetch(`${url}/api/tools/valuation/rent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ propertyCategory: 'flat', totalArea: 54, city: 'Kazan' }),
    })
    expect(call.status).toBe(200)
    expect(await call.json()).toMatchObject({ rent: { currency: expect.any(String) } })
    // The stream subscribes the store (the person's channel) before it answers.
    const page = new AbortController()
    const stream = await fetch(`${url}/api/tools/events?job=valuation/rent:none`, { signal: page.signal })
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const exit = exited(child, ms)
    child.kill('SIGTERM')
    const done = await exit
    page.abort()
    return done
  }

  it('the block exits by itself, its stream, store and client closed', async () => {
    // By itself and cleanly: SIGTERM's handler closed the server, the proxy and the client, none threw.
    expect(await runThenTerminate('with-close', shutdown.code, 20_000)).toEqual({ code: 0, signal: null })
  }, 60_000)
})
