// @vitest-environment node
// The README's browser quick start, built for production with Vite as a partner's app would be:
// the simulated service (msw and /mock) stays out of the build, where a static import brings it in.
import react from '@vitejs/plugin-react'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build, type Rolldown } from 'vite'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { blocks, text } from './support/docs.js'
import { ENTRIES, root } from './support/program.js'

const dir = join(root, 'test/.docs-build')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The JavaScript a production build of `main` ships, chunk by chunk. */
async function production(name: string, main: string): Promise<string[]> {
  const app = join(dir, name)
  mkdirSync(app, { recursive: true })
  writeFileSync(join(app, 'index.html'), '<div id="root"></div><script type="module" src="./main.tsx"></script>')
  writeFileSync(join(app, 'main.tsx'), main)
  const alias = Object.entries(ENTRIES).map(([find, file]) => ({ find: new RegExp(`^${find}$`), replacement: join(root, file) }))
  // Vitest runs with NODE_ENV=test, which Vite would keep: a partner's `vite build` has production.
  vi.stubEnv('NODE_ENV', 'production')
  const output = (await build({ root: app, configFile: false, logLevel: 'silent', plugins: [react()], resolve: { alias }, build: { write: false } })) as Rolldown.RolldownOutput
  vi.unstubAllEnvs()
  return output.output.flatMap((file) => (file.type === 'chunk' ? [file.code] : []))
}

/** Code only the simulated service carries: msw's worker registration and the mock's fixtures. */
const simulated = (chunks: string[]) => chunks.some((code) => /mockServiceWorker|tools\.cabinet\.test/.test(code))

describe('the README’s browser quick start', () => {
  it('says where the worker script comes from', () => {
    const section = text['README.md']!.slice(text['README.md']!.indexOf('## Quick start: a key in the browser'))
    expect(section.slice(0, section.indexOf('```'))).toContain('npx msw init public')
  })

  it('leaves the simulated service out of a production build', async () => {
    const quickStart = blocks.find((block) => block.page === 'README.md' && block.code.includes('msw/browser'))!
    expect(simulated(await production('dev-only', quickStart.code))).toBe(false)
    // The control: imported statically, as the README once showed, it ships with the app.
    const statically = `import { setupWorker } from 'msw/browser'
import { createMockService, MOCK_BASE_URL, MOCK_KEYS } from '@cabinet/tools-react/mock'
await setupWorker(...createMockService().handlers).start()
console.log(MOCK_BASE_URL, MOCK_KEYS.demo)
`
    expect(simulated(await production('static', statically))).toBe(true)
  }, 120_000)
})
