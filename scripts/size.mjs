// `npm run size`: what each import costs a partner's page, measured on the BUILT dist/ (run `npm run
// build` first), the way a bundler ships it: esbuild, minified, code split, peers external. For each
// import it prints the first load (the entry chunk and every chunk it imports statically, gzip -9 of
// each, summed) and every lazy chunk (reached only by `import()`), then what each module costs
// (minified bytes per input, from esbuild's metafile). It exits 1 when an import grows past its limit
// or a lazy chunk past its budget, or when
// a browser import pulls in anything from the server or the mock.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'esbuild'

const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
const peers = Object.keys(pkg.peerDependencies ?? {})
const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`

// gzip bytes; measured when set
const LIMITS = { client: 6100, hook: 9950, runner: 20900, all: 22700 }
// The budgets of DESIGN.md "First load" (`budget`), and what each import may not grow past on the
// way there (`limit`: today's first load, lowered as it falls, never raised); every lazy chunk of
// every import ≤ LAZY.
const LAZY = 8000
const checks = [
  { name: "{ createToolsClient } from '/client'", from: 'dist/entries/client.js', names: '{ createToolsClient }', budget: 7000, limit: LIMITS.client },
  { name: 'provider + one hook', from: 'dist/entries/index.js', names: '{ ToolsProvider, useValuationReport }', budget: 10000, limit: LIMITS.hook },
  { name: 'provider + <ToolRunner>', from: 'dist/entries/index.js', names: '{ ToolsProvider, ToolRunner }', budget: 21000, limit: LIMITS.runner },
  { name: 'export *', from: 'dist/entries/index.js', names: '*', budget: 26000, limit: LIMITS.all },
]
// A browser chunk holding any of these carries server-side code to a page.
const serverOnly = /(^|\/)dist\/(server|mock)\//

function entrySource({ from, names }) {
  const path = JSON.stringify(join(process.cwd(), from))
  return names === '*' ? `export * from ${path}` : `export ${names} from ${path}`
}

/** One import bundled as a page's bundler would: its chunks and the modules in each. */
async function measure(check, dir) {
  const out = join(dir, check.name.replace(/\W+/g, '_'))
  const result = await build({
    stdin: { contents: entrySource(check), resolveDir: process.cwd(), loader: 'js' },
    bundle: true,
    splitting: true,
    format: 'esm',
    minify: true,
    platform: 'browser',
    outdir: out,
    metafile: true,
    external: peers.flatMap((name) => [name, `${name}/*`]),
    logLevel: 'silent',
  })
  const outputs = result.metafile.outputs
  // The import itself; a chunk reached by import() names its module as an entry point too.
  const entry = Object.keys(outputs).find((file) => outputs[file].entryPoint === '<stdin>')
  const first = new Set()
  const visit = (file) => {
    if (first.has(file)) return
    first.add(file)
    for (const imp of outputs[file].imports) if (imp.kind === 'import-statement' && outputs[imp.path]) visit(imp.path)
  }
  visit(entry)
  const chunks = Object.keys(outputs)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({
      file,
      lazy: !first.has(file),
      gzip: gzipSync(readFileSync(file), { level: 9 }).length,
      inputs: Object.entries(outputs[file].inputs).map(([input, { bytesInOutput }]) => ({ input, bytes: bytesInOutput })),
    }))
  return { chunks, firstLoad: chunks.filter((c) => !c.lazy).reduce((sum, c) => sum + c.gzip, 0) }
}

/** A module's name for the table: a package by its name, our own files by their dist path. */
function moduleName(input) {
  const nm = input.lastIndexOf('node_modules/')
  if (nm === -1) return relative(process.cwd(), input).replace(/^dist\//, '')
  const rest = input.slice(nm + 'node_modules/'.length).split('/')
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
}

function costs(chunk, top) {
  const byModule = new Map()
  for (const { input, bytes } of chunk.inputs) {
    const name = moduleName(input)
    byModule.set(name, (byModule.get(name) ?? 0) + bytes)
  }
  return [...byModule].sort((a, b) => b[1] - a[1]).slice(0, top)
}

const dir = mkdtempSync(join(tmpdir(), 'size-'))
const failures = []
const verbose = process.argv.includes('--modules')
try {
  for (const check of checks) {
    const { chunks, firstLoad } = await measure(check, dir)
    const over = firstLoad > check.limit
    if (over) failures.push(`${check.name}: first load ${kB(firstLoad)} grew past ${kB(check.limit)}`)
    const goal = firstLoad > check.budget ? `${kB(firstLoad - check.budget)} over the budget of ${kB(check.budget)}` : `within the budget of ${kB(check.budget)}`
    console.log(`\n${over ? '✗' : '✓'} ${check.name}: first load ${kB(firstLoad)} (never past ${kB(check.limit)}; ${goal})`)
    for (const chunk of chunks) {
      const mods = chunk.inputs.map((i) => relative(process.cwd(), i.input))
      const leaked = mods.filter((m) => serverOnly.test(m))
      if (leaked.length) failures.push(`${check.name}: server-side code in a browser chunk: ${leaked.join(', ')}`)
      if (chunk.lazy && chunk.gzip > LAZY) failures.push(`${check.name}: lazy chunk ${kB(chunk.gzip)} over ${kB(LAZY)}`)
      const main = costs(chunk, 1)[0]?.[0] ?? ''
      console.log(`  ${chunk.lazy ? 'lazy ' : 'first'} ${kB(chunk.gzip).padStart(9)}  ${chunk.lazy ? main : ''}`)
      if (verbose || !chunk.lazy) {
        for (const [name, bytes] of costs(chunk, verbose ? Infinity : 12)) {
          console.log(`      ${String(bytes).padStart(7)} B min  ${name}`)
        }
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
if (failures.length) {
  console.error(`\nnpm run size failed:\n  ${failures.join('\n  ')}`)
  process.exit(1)
}
const unmet = checks.filter((check) => check.limit > check.budget).length
console.log(unmet ? `\nno import grew; ${unmet} of ${checks.length} still over the design's budget` : '\nevery budget holds')
