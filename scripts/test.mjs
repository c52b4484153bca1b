// `npm test`: the whole Vitest suite (unit tests in jsdom, stories in real Chromium).
// Browser tests use the system's Chromium rather than one downloaded by Playwright (CI machines
// cannot download it), so find it first, install it where we can (root with apt-get, as on CI),
// or say in one line what is missing.
// Extra arguments go to Vitest: `npm test -- --reporter=json --outputFile=report.json`.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium'].filter(Boolean)
const find = () => candidates.find((path) => existsSync(path))
const hasAptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0

if (!find() && process.getuid?.() === 0 && hasAptGet) {
  console.log(`No Chromium at ${candidates.join(' or ')}: installing Debian's chromium package`)
  const apt = { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }
  // A failed install falls through to the one-line message below.
  if (spawnSync('apt-get', ['update'], apt).status === 0) {
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], apt)
  }
}
const chromium = find() // the package installs /usr/bin/chromium
if (!chromium) {
  console.error(`No Chromium at ${candidates.join(' or ')}: install it (Debian/Ubuntu: apt-get install chromium) or set CHROMIUM_PATH to its binary.`)
  process.exit(1)
}

// What is made from the tool catalogue first (hooks, stories, docs/tools.md): a new row needs no hand step.
if (spawnSync(process.execPath, ['scripts/derive.mjs'], { stdio: 'inherit' }).status !== 0) process.exit(1)

// Run Vitest's own bin with this Node: no npx round trip, works outside npm scripts too.
const require = createRequire(import.meta.url)
const vitestDir = dirname(require.resolve('vitest/package.json'))
const vitestBin = join(vitestDir, require('vitest/package.json').bin.vitest)
const vitest = spawnSync(process.execPath, [vitestBin, 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
})
process.exit(vitest.status ?? 1)
