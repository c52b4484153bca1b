// `npm run size`: what each import costs a partner's page, measured on the BUILT dist/ (run `npm run
// build` first) by the three bundlers partners build with, each minified and code split, gzip -9:
// - esbuild (scripts/size/esbuild.mjs) and Vite 8 with Rolldown (scripts/size/vite.mjs): the import
//   re-exported from a page module, peers external; the first load is the entry chunk and every
//   chunk it imports statically, a lazy chunk one reached only by `import()`;
// - Next.js 16's production build (scripts/size/next.mjs, which says how its output is read): one
//   page per import in one app (scripts/size/next-app, installed there on first use), built once,
//   React's and Next's own chunks and bytes left out as peers are left out above.
// For each import and bundler it prints the first load and the largest lazy chunk, then what each
// module of esbuild's first load costs (minified bytes; `--modules`: every chunk on every bundler).
// `--bundlers=esbuild,vite` measures only those. It exits 1 when, on any bundler, a first load is
// over its budget (DESIGN.md "First load") or a lazy chunk over LAZY; when esbuild's first load
// grows more than 1% over its baseline; or when a browser import carries server or mock code. A
// bundler listed in NOT_YET is held to its ceiling there instead, and reported as over the budget.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { costs, imports, kB, moduleName } from './size/entries.mjs'
import { measureEsbuild } from './size/esbuild.mjs'
import { measureNext } from './size/next.mjs'
import { measureVite } from './size/vite.mjs'

const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
const peers = Object.keys(pkg.peerDependencies ?? {})

// gzip bytes, by Next.js page name. `budget`: DESIGN.md "First load", on every bundler. `baseline`:
// esbuild's first load when the three bundlers were first measured; esbuild's may grow 1% over it.
const BUDGET = { client: 7000, hook: 10000, runner: 21000, all: 26000 }
// /client's baseline moved 6060 → 6260 when the journal learned to skip and report bad entries and
// lazy chunks to be fetched again after a failure, and answers to say they replay (the promises of
// "Networks as people have them").
const BASELINE = { client: 6260, hook: 9910, runner: 20840, all: 22680 }
const LAZY = 8000
// Where a bundler does not meet the budget yet: what it measured when first measured, a ceiling no
// import may grow past while the gap is closed (Turbopack wraps every module, about 15% more, and
// keeps the whole of zod's schemas in the checks' chunk; set when this round's work merged). Remove a row once its budget holds.
// Vite's provider + one hook carries Vite's own preload helper (`__vitePreload`, 3.4 kB min) for
// the lazy chunks' imports.
const NOT_YET = { next: { client: 7580, hook: 12060, runner: 24330, all: 26570, lazy: 15860 }, vite: { hook: 10120 } }
const ratchet = (page) => Math.round(BASELINE[page] * 1.01)
// A browser chunk holding any of these carries server-side code to a page.
const serverOnly = /^(server|mock)\//

const flag = process.argv.find((arg) => arg.startsWith('--bundlers='))
const chosen = flag ? flag.slice('--bundlers='.length).split(',') : ['esbuild', 'vite', 'next']
const verbose = process.argv.includes('--modules')

/** Each bundler's chunks for each import: a Map by page name. */
async function measureAll(dir) {
  const each = async (measure) => new Map(await Promise.all(imports.map(async (check) => [check.page, await measure(check, { dir, peers })])))
  const bundlers = { esbuild: () => each(measureEsbuild), vite: () => each(measureVite), next: () => measureNext(imports, { peers }) }
  const results = new Map()
  // One after another: each bundler has the machine to itself.
  for (const name of chosen) results.set(name, await bundlers[name]())
  return results
}

/** One bundler's line for one import, and what in it breaks a rule. */
function judge(check, bundler, chunks) {
  const failures = []
  const first = chunks.filter((chunk) => !chunk.lazy).reduce((sum, chunk) => sum + chunk.gzip, 0)
  const lazy = chunks.filter((chunk) => chunk.lazy).sort((a, b) => b.gzip - a.gzip)
  const where = `${check.name} on ${bundler}`
  const gap = NOT_YET[bundler]
  const firstLimit = Math.max(BUDGET[check.page], Math.round((gap?.[check.page] ?? 0) * 1.01))
  const lazyLimit = Math.max(LAZY, Math.round((gap?.lazy ?? 0) * 1.01))
  if (first > firstLimit) failures.push(`${where}: first load ${kB(first)} over ${kB(firstLimit)}`)
  if (bundler === 'esbuild' && first > ratchet(check.page))
    failures.push(`${where}: first load ${kB(first)} grew more than 1% over ${kB(BASELINE[check.page])}`)
  for (const chunk of lazy.filter((chunk) => chunk.gzip > lazyLimit))
    failures.push(`${where}: lazy chunk ${chunk.file} (${costs(chunk.inputs, 1)[0]?.[0]}) ${kB(chunk.gzip)} over ${kB(lazyLimit)}`)
  const over = first > BUDGET[check.page] || lazy.some((chunk) => chunk.gzip > LAZY)
  const leaked = chunks.flatMap((chunk) => chunk.inputs.map((i) => moduleName(i.input)).filter((name) => serverOnly.test(name)))
  if (leaked.length) failures.push(`${where}: server-side code in a browser chunk: ${[...new Set(leaked)].join(', ')}`)
  const largest = lazy[0] ? `${kB(lazy[0].gzip).padStart(9)}  ${costs(lazy[0].inputs, 1)[0]?.[0]}` : '     none'
  const ratchetNote = bundler === 'esbuild' ? ` (never past ${kB(ratchet(check.page))})` : ''
  const mark = failures.length ? '✗' : over ? '!' : '✓'
  const line = `  ${mark} ${bundler.padEnd(8)} first ${kB(first).padStart(9)}   largest lazy ${largest}${ratchetNote}`
  return { line, failures, over }
}

function printModules(chunks, top) {
  for (const chunk of chunks) {
    console.log(`      ${chunk.lazy ? 'lazy ' : 'first'} ${kB(chunk.gzip).padStart(9)}  ${basename(chunk.file)}`)
    for (const [name, bytes] of costs(chunk.inputs, top)) console.log(`      ${String(bytes).padStart(7)} B min  ${name}`)
  }
}

const dir = mkdtempSync(join(tmpdir(), 'size-'))
const failures = []
const notYet = []
try {
  const results = await measureAll(dir)
  for (const check of imports) {
    console.log(`\n${check.name}: first load ≤ ${kB(BUDGET[check.page])}, each lazy chunk ≤ ${kB(LAZY)}`)
    for (const [bundler, byPage] of results) {
      const judged = judge(check, bundler, byPage.get(check.page))
      console.log(judged.line)
      failures.push(...judged.failures)
      if (judged.over && !judged.failures.length) notYet.push(`${check.name} on ${bundler}`)
    }
    for (const [bundler, byPage] of results) {
      const chunks = byPage.get(check.page).filter((chunk) => verbose || (bundler === 'esbuild' && !chunk.lazy))
      if (chunks.length) console.log(`    ${bundler}, by module:`)
      printModules(chunks, verbose ? Infinity : 12)
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
if (failures.length) {
  console.error(`\nnpm run size failed:\n  ${failures.join('\n  ')}`)
  process.exit(1)
}
if (notYet.length) console.log(`\n! over the design's budget, held under its ceiling (NOT_YET) until the gap is closed:\n  ${notYet.join('\n  ')}`)
const held = chosen.filter((bundler) => !notYet.some((where) => where.endsWith(` on ${bundler}`)))
console.log(`\nevery budget holds on ${held.join(', ') || 'no bundler'}`)
