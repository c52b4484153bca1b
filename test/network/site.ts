// The network suite's site: a partner's page (a Vite production build on the built dist/) served
// beside the proxy at /api/tools, itself in front of the simulated service, whose bills the tests count.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'
import { createMockService } from '../../src/mock/index.js'
import { createToolsProxy } from '../../src/server/index.js'
import { TOOLS } from '../../src/tools/index.js'
import { listen } from '../support/http.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** Builds the page as a partner's Vite does (production mode); returns the folder it is in. */
export async function buildPage(): Promise<{ out: string; remove: () => void }> {
  const dir = mkdtempSync(join(tmpdir(), 'network-page-'))
  const entry = fileURLToPath(new URL('./page/main.tsx', import.meta.url))
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html lang="en"><title>Partner</title><div id="root"></div><script type="module" src="${entry}"></script>`)
  await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    mode: 'production',
    resolve: { alias: { '@cabinet/tools-react': join(ROOT, 'dist/entries/index.js') } },
    build: { outDir: join(dir, 'out') },
  })
  return { out: join(dir, 'out'), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html' }

/** The page's files and the proxy on one origin; the service behind the proxy keeps jobs `jobDurationMs` long. */
export async function serveSite(out: string, jobDurationMs: number) {
  const service = createMockService({ jobDuration: jobDurationMs })
  const proxy = createToolsProxy({
    baseUrl: service.baseUrl,
    apiKey: 'demo-key',
    basePath: '/api/tools',
    secret: 'a-test-secret-of-at-least-thirty-two-characters',
    authorize: () => ({ user: 'person', tools: TOOLS.map((tool) => tool.id) }),
    rate: { requests: 100_000, perMs: 1000 },
    streamRate: { requests: 100_000, perMs: 1000 },
    fetch: service.fetch,
    onError: () => {},
  })
  const server = await listen((request) => {
    const { pathname } = new URL(request.url)
    if (pathname.startsWith('/api/tools/')) return proxy.handle(request)
    const file = join(out, pathname === '/' ? 'index.html' : pathname)
    if (!file.startsWith(out) || !existsSync(file)) return new Response('Not found', { status: 404 })
    return new Response(readFileSync(file), { headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' } })
  })
  return { url: server.url, service, close: server.close }
}
