// Each import as a page of one Next.js 16 app (scripts/size/next-app: app/<page>/page.jsx, each a
// client page of one import), built once with `next build` (Turbopack, production) on a copy of
// dist/ and package.json in the app's node_modules, as a partner's install has it. The app pins the
// Next version examples/next-app pins and the kit's dependencies at the versions the repository's
// lock has (both checked); it is installed with `npm ci` on first use, or when a pin changed.
//
// How a page's first load is counted, from what Next writes to .next/:
// - the page loads the app's shared chunks (build-manifest.json `rootMainFiles`: Turbopack's
//   runtime, React DOM, Next's router) and the chunks its client-reference manifest lists
//   (server/app/<page>/page_client-reference-manifest.js, `entryJSFiles`) for the layout, Next's
//   global error page and the page itself;
// - the shared chunks and the layout's and the error page's are React's and Next's own, on every
//   page of any app: they are left out whole, as peers are left out of the esbuild and Vite builds;
// - in the page's own chunks, what their source maps say came from a peer (react, react-dom,
//   @tanstack/react-query, next, msw, @opentelemetry/api, and the packages they depend on) is
//   removed before gzip -9 (ownBytes.mjs); what is left is the kit, its dependencies and the page.
// A lazy chunk is one a first-load chunk of the page names (`static/chunks/….js`, loaded by its
// `import()`) and does not load first, followed through the chunks it names in turn, counted the same way.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { gzip } from './entries.mjs'
import { ownBytes } from './ownBytes.mjs'

const app = join(process.cwd(), 'scripts/size/next-app')
const readJson = (path) => JSON.parse(readFileSync(path, 'utf8'))
const pkg = () => readJson('package.json')
const installed = (name) => {
  const path = join(app, 'node_modules', name, 'package.json')
  return existsSync(path) ? readJson(path) : undefined
}

/** The app's pins agree with the example's Next and the kit's lock; installed when they are not. */
function install(pkg) {
  const pins = readJson(join(app, 'package.json')).dependencies
  const lock = readJson('package-lock.json').packages
  const wanted = { next: readJson('examples/next-app/package.json').dependencies.next }
  for (const name of Object.keys(pkg.dependencies ?? {})) wanted[name] = lock[`node_modules/${name}`].version
  const drift = Object.entries(wanted).filter(([name, version]) => pins[name] !== version)
  if (drift.length) {
    const fix = drift.map(([name, version]) => `${name}@${version}`).join(' ')
    throw new Error(`scripts/size/next-app pins other versions than the kit: cd scripts/size/next-app && npm install --save-exact ${fix}`)
  }
  if (Object.entries(pins).every(([name, version]) => installed(name)?.version === version)) return
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: app, stdio: 'inherit' })
  if (npm.status !== 0) throw new Error('npm ci in scripts/size/next-app failed')
}

/** Packages a page has from its framework: the peers (and Next), and all they depend on, not the kit's own. */
function peerPackages(peers, pkg) {
  const closure = (roots) => {
    const seen = new Set()
    const visit = (name) => {
      if (seen.has(name)) return
      seen.add(name)
      Object.keys(installed(name)?.dependencies ?? {}).forEach(visit)
    }
    roots.forEach(visit)
    return seen
  }
  const own = closure(Object.keys(pkg.dependencies ?? {}))
  return new Set([...closure([...peers, 'next'])].filter((name) => !own.has(name)))
}

function build() {
  const kit = join(app, 'node_modules', pkg().name)
  rmSync(kit, { recursive: true, force: true })
  mkdirSync(kit, { recursive: true })
  cpSync('dist', join(kit, 'dist'), { recursive: true })
  cpSync('package.json', join(kit, 'package.json'))
  rmSync(join(app, '.next'), { recursive: true, force: true })
  const next = spawnSync(process.execPath, [join(app, 'node_modules/next/dist/bin/next'), 'build'], {
    cwd: app,
    encoding: 'utf8',
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1' },
  })
  if (next.status !== 0) throw new Error(`next build failed:\n${next.stdout}\n${next.stderr}`)
}


/** A page's chunks: those it loads first, apart from React's and Next's own, and those it loads later. */
function pageChunks(page, rootMainFiles) {
  const sandbox = {}
  runInNewContext(readFileSync(join(app, `.next/server/app/${page}/page_client-reference-manifest.js`), 'utf8'), sandbox)
  const { entryJSFiles } = sandbox.__RSC_MANIFEST[`/${page}/page`]
  const own = `[project]/app/${page}/page`
  const framework = new Set([...rootMainFiles, ...Object.entries(entryJSFiles).flatMap(([key, files]) => (key === own ? [] : files))])
  const first = entryJSFiles[own].filter((file) => !framework.has(file))
  const later = new Set()
  const follow = (file) => {
    for (const [named] of readFileSync(join(app, '.next', file), 'utf8').matchAll(/static\/chunks\/[\w.-]+\.js/g)) {
      if (framework.has(named) || first.includes(named) || later.has(named)) continue
      later.add(named)
      follow(named)
    }
  }
  first.forEach(follow)
  return [...first.map((file) => ({ file, lazy: false })), ...[...later].map((file) => ({ file, lazy: true }))]
}

/** Every import's page built in one app: each page's chunks, counted without React's and Next's bytes. */
export function measureNext(checks, { peers }) {
  install(pkg())
  build()
  const isPeer = ((set) => (name) => set.has(name))(peerPackages(peers, pkg()))
  const { rootMainFiles } = readJson(join(app, '.next/build-manifest.json'))
  return new Map(
    checks.map((check) => {
      const chunks = pageChunks(check.page, rootMainFiles).map(({ file, lazy }) => {
        const code = readFileSync(join(app, '.next', file), 'utf8')
        // The map a chunk names: Turbopack names chunks and maps by hashes of their own.
        const map = join(app, '.next', dirname(file), code.match(/\/\/# sourceMappingURL=(\S+)\s*$/)[1])
        const { own, inputs } = ownBytes(code, readJson(map), isPeer)
        return { file, lazy, gzip: gzip(own), inputs }
      })
      return [check.page, chunks]
    }),
  )
}
