// @vitest-environment node
// The simulated service as a partner gets it, from the built package: `/mock` bundled into a
// Worker and started in workerd (Miniflare), where MSW cannot load, answering through `fetch`; and
// `npx @cabinet/tools-react mock`, the command serving it on a port until SIGTERM. And the packed
// package installed as a Node script installs it: no React.
import { execFileSync, spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { Miniflare } from 'miniflare'
import { build } from 'vite'
import { beforeAll, describe, expect, it } from 'vitest'
import { COMPATIBILITY_DATE } from './support/workerd.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const app = join(root, 'node_modules/.cache/mock-anywhere')
const pkg = join(app, 'node_modules/@cabinet/tools-react')
const rent = { propertyCategory: 'flat', totalArea: 54, city: 'Kazan' }
const callRent = (base: string, key = 'demo-key') =>
  fetch(`${base}/valuation/rent`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(rent) })

beforeAll(async () => {
  // The package as a partner installs it: its package.json and the built JavaScript.
  rmSync(app, { recursive: true, force: true })
  mkdirSync(pkg, { recursive: true })
  copyFileSync(join(root, 'package.json'), join(pkg, 'package.json'))
  await build({ configFile: join(root, 'vite.lib.config.ts'), logLevel: 'silent', build: { outDir: join(pkg, 'dist'), sourcemap: false } })
}, 120_000)

describe('/mock in workerd', () => {
  it('starts, and answers a call through fetch, billed once', { timeout: 120_000 }, async () => {
    writeFileSync(
      join(app, 'worker.mjs'),
      `import { createMockService } from '@cabinet/tools-react/mock'
const service = createMockService({ baseUrl: 'http://mock.test/v1' })
export default {
  async fetch(request) {
    const { pathname } = new URL(request.url)
    if (pathname === '/bills') return Response.json({ bills: service.bills() })
    return service.fetch(new Request(new URL(pathname, 'http://mock.test'), request))
  },
}
`,
    )
    // Bundled as a Workers build does (wrangler's conditions), msw installed beside it.
    await build({
      configFile: false,
      logLevel: 'silent',
      root: app,
      resolve: { conditions: ['workerd', 'worker', 'module', 'browser', 'import'] },
      ssr: { noExternal: true, target: 'webworker', resolve: { conditions: ['workerd', 'worker', 'module', 'browser', 'import'] } },
      build: { ssr: join(app, 'worker.mjs'), outDir: join(app, 'out'), emptyOutDir: true, rolldownOptions: { output: { entryFileNames: 'worker.mjs', codeSplitting: false } } },
    })
    const mf = new Miniflare({ modules: true, scriptPath: join(app, 'out/worker.mjs'), compatibilityDate: COMPATIBILITY_DATE })
    try {
      const answer = await mf.dispatchFetch('http://worker.test/v1/valuation/rent', {
        method: 'POST',
        headers: { authorization: 'Bearer demo-key', 'content-type': 'application/json' },
        body: JSON.stringify(rent),
      })
      expect(answer.status).toBe(200)
      expect(((await answer.json()) as { rent: { monthly: number } }).rent.monthly).toBeGreaterThan(0)
      expect(await (await mf.dispatchFetch('http://worker.test/bills')).json()).toEqual({ bills: 1 })
    } finally {
      await mf.dispose()
    }
  })
})

describe('npx @cabinet/tools-react mock', () => {
  it('serves on a free port, prints its URL, keys and bills, answers a call billed once, and exits on SIGTERM', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [join(pkg, 'dist/bin/tools-react.js'), 'mock', '--port', '0'], { cwd: app, stdio: ['ignore', 'pipe', 'inherit'] })
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
    const printed: string[] = []
    for await (const line of createInterface({ input: child.stdout })) {
      printed.push(line)
      if (line.startsWith('Stop:')) break
    }
    const banner = printed.join('\n')
    const base = /listens on (http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(banner)![1]!
    const state = /Bills: GET (\S+)/.exec(banner)![1]!
    expect(banner).toContain('demo-key')
    expect(banner).toContain('norent-key')

    expect((await callRent(base)).status).toBe(200)
    expect((await callRent(base, 'broke-key')).status).toBe(402)
    expect(await (await fetch(state)).json()).toMatchObject({ bills: { total: 1, demo: 1, broke: 0 } })

    child.kill('SIGTERM')
    expect(await exited).toBe(0)
  })
})

describe('a project that uses only /client, /server or /mock', () => {
  it('installs no React from the packed package', { timeout: 120_000 }, () => {
    const packed = join(app, 'packed')
    const project = join(app, 'node-project')
    mkdirSync(packed)
    mkdirSync(project)
    // The built package as npm packs it (the build ran above).
    execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', packed], { cwd: pkg, stdio: 'ignore' })
    const tarball = join(packed, readdirSync(packed)[0]!)
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'node-script', private: true, type: 'module' }))
    execFileSync('npm', ['install', tarball, '--ignore-scripts', '--no-audit', '--no-fund', '--silent'], { cwd: project, stdio: 'ignore' })
    const installed = readdirSync(join(project, 'node_modules'))
    expect(installed).toContain('@cabinet')
    for (const react of ['react', 'react-dom', 'react-dropzone', '@tanstack']) expect(existsSync(join(project, 'node_modules', react)), react).toBe(false)
  })
})
