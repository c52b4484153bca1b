// Every ```ts and ```tsx block of the README and docs/ runs against the simulated service as
// written: written to a module of its own (the package's names pointing at the sources), imported,
// and what it exports driven as a partner's app would. Settings come from the environment the
// blocks read (`TOOLS_BASE_URL` is the simulated service); the names a partner's app provides
// (`getSessionUser`, `sessionOf`, `logger`) are stand-ins. A block that cannot run here says why.
import '@testing-library/jest-dom/vitest'
import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { http } from 'msw'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import type { ComponentType, ReactNode } from 'react'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { MOCK_BASE_URL, MOCK_KEYS } from '../src/mock/index.js'
import { ToolsProvider } from '../src/entries/index.js'
import type { ProxyStore, ToolsProxy, ToolsRouteHandlers } from '../src/server/index.js'
import { fakeClock } from './support/clock.js'
import { blocks, type DocBlock } from './support/docs.js'
import { stubObjectUrls } from './support/objectUrls.js'
import { ENTRIES, root } from './support/program.js'
import { startRedis } from './support/redis.js'
import { startRedisCluster } from './support/redisCluster.js'
import { setupMockService } from './support/service.js'
import { loadUploadForm } from '../src/components/UploadForm.js'

// The upload form's code and the drop's are chunks fetched when a form is first shown: fetch them first, as a page shown before would have.
beforeAll(() => loadUploadForm())

const { service, server } = setupMockService({ jobDurationMs: 3_000 })
const { until, drive, advance } = fakeClock(server)
stubObjectUrls()

const dir = join(root, 'test/.docs-run')
mkdirSync(dir, { recursive: true })
afterAll(() => rmSync(dir, { recursive: true, force: true }))
afterEach(() => vi.unstubAllEnvs())

const SETTINGS = {
  TOOLS_BASE_URL: MOCK_BASE_URL,
  TOOLS_API_KEY: MOCK_KEYS.demo,
  TOOLS_PROXY_SECRET: 'a-docs-secret-of-at-least-thirty-two-characters',
  TOOLS_WEBHOOK_SECRET: `whsec_${btoa('a webhook secret of 24 b')}`,
}
// The partner's own session and logger, which the blocks call.
Object.assign(globalThis, {
  getSessionUser: async () => ({ id: 'u_1' }),
  sessionOf: async () => ({ user: 'u_1', tools: ['valuation/rent', 'pdf/create'] }),
  logger: { warn: () => {}, error: () => {} },
})

/** The block as a module of its own, the package's names pointing at the sources; imported (on the fake clock unless `realTime`). */
async function load(block: DocBlock, { realTime = false } = {}): Promise<Record<string, unknown>> {
  const file = join(dir, `${block.id}.${block.lang === 'ts' ? 'ts' : 'tsx'}`)
  const to = (path: string) => relative(dir, join(root, path))
  // A block's top-level constants are exported too, so the test can look at what it made.
  const made = [...block.code.matchAll(/^(?:const|let) (\w+)\b/gm)].map((match) => match[1]!)
  const source = `${block.code}${made.length ? `\nexport { ${made.join(', ')} }\n` : ''}`
    .replace(/^import '@cabinet\/tools-react\/styles\.css'.*$/m, '')
    .replace(/'(@cabinet\/tools-react(?:\/[\w/]+)?)'/g, (_, name: keyof typeof ENTRIES) => `'${to(ENTRIES[name])}'`)
    .replace(/'(?:\.\.\/)+lib\/session'/g, `'${to('examples/next-app/lib/session.ts')}'`)
  writeFileSync(file, source)
  const loading = import(/* @vite-ignore */ file) as Promise<Record<string, unknown>>
  return realTime ? loading : drive(loading)
}

const rent = { propertyCategory: 'flat', totalArea: 54, city: 'Kazan' }
const call = (path: string, body: unknown, init: RequestInit = {}) =>
  new Request(`${location.origin}/api/tools/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie: 'demo_user=alice' }, body: JSON.stringify(body), ...init })

/** The page's `/api/tools/…` served by a route's handlers, the signed-in person's cookie added. */
function serveRoute(route: ToolsRouteHandlers) {
  server.use(
    http.all(`${location.origin}/api/tools/*`, ({ request }) => {
      const signedIn = new Request(request)
      signedIn.headers.set('cookie', 'demo_user=alice')
      return request.method === 'POST' ? route.POST(signedIn) : route.GET(signedIn)
    }),
  )
}

/** Fills the rent form a `<ToolRunner tool="valuation/rent">` shows, runs it and waits for the answer. */
async function runRentForm() {
  const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) })
  await drive(user.type(await until(() => screen.getByLabelText(/Property type/)), 'flat'))
  await drive(user.clear(screen.getByLabelText(/Total area/)))
  await drive(user.type(screen.getByLabelText(/Total area/), '54'))
  if (!(screen.getByLabelText(/City/) as HTMLInputElement).value) await drive(user.type(screen.getByLabelText(/City/), 'Kazan'))
  await drive(user.click(screen.getByRole('button', { name: 'Run' })))
  return until(() => screen.getByRole('region', { name: /: result$/ }))
}

const demo = ({ children }: { children?: ReactNode }) => (
  <ToolsProvider baseUrl={MOCK_BASE_URL} apiKey={MOCK_KEYS.demo} journal={false}>
    {children}
  </ToolsProvider>
)

/**
 * A docs block that makes `redis` and `store` from REDIS_URL, run against a Redis the test starts:
 * a cap's counter and a claim, each where its key's tag places it.
 */
async function runsOnRedis(block: DocBlock, start: () => Promise<{ url: string; stop(): Promise<unknown> }>) {
  vi.useRealTimers()
  const server = await start()
  vi.stubEnv('REDIS_URL', server.url)
  try {
    const { redis, store } = (await load(block, { realTime: true })) as { redis: { close(): Promise<unknown> }; store: ProxyStore }
    expect(await store.increment('calls:{u:docs}:1', 2, 60_000)).toBe(2)
    expect(await store.claim('reading:{j:docs}', 60_000)).toBe(true)
    expect(await store.claim('reading:{j:docs}', 60_000)).toBe(false)
    await redis.close()
  } finally {
    await server.stop()
  }
}

/** How each block is run, by its id; `skip` says why one cannot run here. */
const RUNS: Record<string, { run: (block: DocBlock) => Promise<void> } | { skip: string }> = {
  // The proxy in one route, against the service named by the environment.
  'README-md-1': {
    run: async (block) => {
      vi.stubEnv('TOOLS_BASE_URL', SETTINGS.TOOLS_BASE_URL)
      for (const [name, value] of Object.entries(SETTINGS)) vi.stubEnv(name, value)
      const route = (await load(block)) as unknown as ToolsRouteHandlers
      expect(await (await route.POST(call('valuation/rent', rent))).json()).toMatchObject({ rent: { monthly: expect.any(Number) } })
      const created = await route.POST(call('pdf/create', { objectId: 'obj_demo' }))
      expect(created.status).toBe(202)
      const { jobId } = (await created.json()) as { jobId: string }
      expect((await route.GET(new Request(`${location.origin}/api/tools/pdf/create/jobs/${jobId}`))).status).toBe(200)
      expect(service.bills()).toBe(2)
    },
  },
  // The page behind that proxy.
  'README-md-2': {
    run: async (block) => {
      for (const [name, value] of Object.entries(SETTINGS)) vi.stubEnv(name, value)
      serveRoute((await load(blocks.find((other) => other.id === 'README-md-1')!)) as unknown as ToolsRouteHandlers)
      const { RentEstimate } = (await load(block)) as { RentEstimate: ComponentType<{ userId: string }> }
      render(<RentEstimate userId="u_1" />)
      expect(await runRentForm()).toHaveTextContent(/Rent/)
      expect(service.bills()).toBe(1)
    },
  },
  'README-md-3': { skip: 'it starts a service worker (msw/browser), which only a browser has' },
  'README-md-4': {
    run: async (block) => {
      const { PdfButton } = (await load(block)) as { PdfButton: ComponentType<{ objectId: string }> }
      render(<PdfButton objectId="obj_demo" />, { wrapper: demo })
      await drive(userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) }).click(screen.getByRole('button', { name: 'Make the PDF' })))
      await advance(5_000, 50)
      expect(await until(() => screen.getByText('Done'))).toBeInTheDocument()
      expect(service.bills()).toBe(1)
    },
  },
  'docs-client-md-1': {
    run: async (block) => {
      for (const [name, value] of Object.entries(SETTINGS)) vi.stubEnv(name, value)
      const { job, pdf, rent } = (await load(block)) as { job: { phase: string }; pdf: Blob; rent: { data: unknown } }
      expect(job.phase).toBe('succeeded')
      expect(pdf.type).toBe('application/pdf')
      expect(rent.data).toMatchObject({ rent: { monthly: expect.any(Number) } })
      expect(service.bills()).toBe(2)
    },
  },
  'docs-hooks-md-1': { run: async (block) => void (await load(block)) }, // a component, compiled and loaded
  'docs-hooks-md-2': { run: async (block) => void (await load(block)) }, // declarations only
  'docs-hooks-md-3': {
    run: async (block) => {
      const { SignOut } = (await load(block)) as { SignOut: ComponentType<{ auth: { signOut(): Promise<void> } }> }
      const signOut = vi.fn(async () => {})
      render(<SignOut auth={{ signOut }} />, { wrapper: demo })
      await drive(userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) }).click(screen.getByRole('button', { name: 'Sign out' })))
      expect(signOut).toHaveBeenCalledTimes(1)
    },
  },
  'docs-mock-md-1': {
    run: async (block) => {
      const { service: own, server: its } = (await load(block)) as { service: { bills(): number }; server: { listen(): void } }
      expect(own.bills()).toBe(0)
      expect(typeof its.listen).toBe('function')
    },
  },
  'docs-mock-md-2': {
    run: async (block) => {
      const { service: own } = (await load(block, { realTime: true })) as { service: { fetch: typeof fetch; bills(): number } }
      const rentCall = () =>
        own.fetch(`${MOCK_BASE_URL}/valuation/rent`, { method: 'POST', headers: { authorization: 'Bearer agency-key', 'content-type': 'application/json' }, body: JSON.stringify(rent) })
      const answers = [await drive(rentCall()), await drive(rentCall()), await drive(rentCall())] // each answer waits latencyMs
      expect(answers.map((answer) => [answer.status, answer.headers.get('retry-after')])).toEqual([[429, '5'], [429, '5'], [200, null]])
      expect(own.bills()).toBe(1)
    },
  },
  'docs-mock-md-3': { skip: 'a proxy listening on a port, in front of the command: test/mock-anywhere.test.ts starts the command from the built package and calls it' },
  'docs-mock-md-4': { skip: 'a Worker runs only in workerd: test/mock-anywhere.test.ts starts /mock there, built, and calls it through fetch' },
  // The Next.js route with no TOOLS_BASE_URL: the simulated service in process, sending its webhooks.
  'docs-nextjs-md-1': {
    run: async (block) => {
      vi.stubEnv('TOOLS_BASE_URL', '')
      const route = (await load(block)) as unknown as ToolsRouteHandlers
      expect((await route.POST(call('valuation/rent', rent))).status).toBe(200)
      expect((await route.POST(call('valuation/rent', rent, { headers: { 'content-type': 'application/json' } }))).status).toBe(401)
      const created = await route.POST(call('valuation/report', {}))
      const { jobId } = (await created.json()) as { jobId: string }
      const stream = await route.GET(new Request(`${location.origin}/api/tools/events?job=valuation/report:${jobId}`, { headers: { cookie: 'demo_user=alice' } }))
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader()
      let events = ''
      void (async () => {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) events += chunk.value
      })()
      // The job takes 8 s of the simulated clock; its webhooks (each signed and checked by Web
      // Crypto, in real time) reach the stream as it changes.
      for (let turn = 0; turn < 1_000 && !events.includes('"completed"'); turn++) await advance(50, 50)
      await reader.cancel()
      expect(events).toMatch(/event: job[\s\S]*"status":"completed"/)
    },
  },
  'docs-nextjs-md-2': {
    run: async (block) => {
      const { currentUser, userIdOf } = (await load(block)) as { currentUser(request: Request): Promise<unknown>; userIdOf(cookie: string | null): unknown }
      expect(userIdOf('theme=dark; demo_user=alice')).toBe('alice')
      expect(await currentUser(call('valuation/rent', rent))).toEqual({ id: 'alice' })
      expect(await currentUser(new Request(location.origin))).toBeNull()
    },
  },
  'docs-cloudflare-md-1': { skip: 'a Worker with a Durable Object namespace bound runs only in workerd: test/docs-workers.test.ts runs it there with a cap' },
  'docs-nextjs-md-3': { skip: 'a Next.js server layout (next/headers): examples/next-app holds it, built by `next build` in .ci/run' },
  'docs-nextjs-md-5': { skip: 'Next’s own config, read by `next dev`/`next build`; its rewrites pass Host on as Vite’s shorthand does, which test/server-developer.test.ts runs' },
  'docs-nextjs-md-4': {
    run: async (block) => {
      vi.stubEnv('TOOLS_BASE_URL', '')
      serveRoute((await load(blocks.find((other) => other.id === 'docs-nextjs-md-1')!)) as unknown as ToolsRouteHandlers)
      const { default: Page } = (await load(block)) as { default: ComponentType }
      render(
        <ToolsProvider baseUrl="/api/tools" user="alice" journal={false}>
          <Page />
        </ToolsProvider>,
      )
      expect(await runRentForm()).toHaveTextContent(/Rent/)
    },
  },
  // On a redis-server of its own, then on a 3-master Redis Cluster of its own.
  'docs-server-md-1': { run: (block) => runsOnRedis(block, async () => startRedis()) },
  'docs-server-md-2': {
    run: (block) =>
      runsOnRedis(block, async () => {
        const cluster = await startRedisCluster()
        return { url: cluster.urls[0]!, stop: cluster.stop }
      }),
  },
  'docs-server-md-3': { skip: 'a server listening on a port until SIGTERM: test/shutdown.test.ts runs it as a process of its own on a Redis Cluster and stops it' },
  'docs-server-md-4': { skip: 'a Worker with a Durable Object namespace bound runs only in workerd: test/docs-workers.test.ts runs it there with a cap' },
  'docs-server-md-5': { skip: 'Vite’s dev server config: test/server-developer.test.ts runs Vite with it in front of a proxy, and with its shorthand' },
  // The logger hears of a refusal, not of a call that went well.
  'docs-server-md-6': {
    run: async (block) => {
      for (const [name, value] of Object.entries(SETTINGS)) vi.stubEnv(name, value)
      const { logger } = globalThis as unknown as { logger: { warn(...args: unknown[]): void; error(...args: unknown[]): void } }
      const warn = vi.spyOn(logger, 'warn')
      const error = vi.spyOn(logger, 'error')
      try {
        const { proxy } = (await load(block)) as { proxy: ToolsProxy }
        expect((await drive(proxy.handle(call('valuation/rent', rent)))).status).toBe(200)
        expect(warn).not.toHaveBeenCalled()
        expect((await drive(proxy.handle(call('pdf/create', { objectId: 'obj_1' })))).status).toBe(403)
        expect(warn).toHaveBeenCalledWith(
          expect.objectContaining({ type: 'request', outcome: 'refused', code: 'proxy_tool_not_allowed' }),
          'POST /api/tools/pdf/create → 403 proxy_tool_not_allowed',
        )
        // A key the service refuses is the loudest line: an error, with its code.
        vi.stubEnv('TOOLS_API_KEY', 'a-key-the-service-does-not-know')
        const wrongKey = (await load({ ...block, id: `${block.id}-wrong-key` })) as { proxy: ToolsProxy }
        expect((await drive(wrongKey.proxy.handle(call('valuation/rent', rent)))).status).toBe(502)
        expect(error).toHaveBeenCalledWith(
          expect.objectContaining({ type: 'request', outcome: 'failed', code: 'proxy_service_refused_key' }),
          'POST /api/tools/valuation/rent → 502 proxy_service_refused_key',
        )
      } finally {
        warn.mockRestore()
        error.mockRestore()
      }
    },
  },
}

describe('the examples of the README and docs/, run', () => {
  it('every block is run, or says why it cannot be', () => {
    expect(blocks.map((block) => block.id).filter((id) => !RUNS[id])).toEqual([])
    expect(Object.keys(RUNS).filter((id) => !blocks.some((block) => block.id === id))).toEqual([])
  })

  it.each(blocks.filter((block) => RUNS[block.id] && 'run' in RUNS[block.id]!).map((block) => [block.id, block] as const))('%s', async (_id, block) => {
    await (RUNS[block.id] as { run: (block: DocBlock) => Promise<void> }).run(block)
  }, 60_000)
})
