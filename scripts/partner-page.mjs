// A real Vite production build of a partner's page (React 19, TanStack Query, the kit's
// <ToolRunner tool="valuation/rent">) against the built dist/ (run `npm run build` first): total
// first-load JavaScript (the entry and its static imports, gzip -9) and what the kit adds over the
// same page without it; the chunks fetched later are listed apart.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`

async function firstLoad(entry) {
  const root = mkdtempSync(join(tmpdir(), 'partner-page-'))
  writeFileSync(join(root, 'index.html'), `<!doctype html><div id="root"></div><script type="module" src="${join(process.cwd(), 'scripts/partner-page', entry)}"></script>`)
  try {
    const result = await build({
      root,
      configFile: false,
      logLevel: 'silent',
      resolve: { alias: { '@cabinet/tools-react': join(process.cwd(), 'dist/entries/index.js') } },
      esbuild: { jsx: 'automatic' },
      build: { outDir: join(root, 'out'), write: false, modulePreload: { polyfill: false } },
    })
    const chunks = result.output.filter((item) => item.type === 'chunk')
    const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]))
    const first = new Set()
    const visit = (name) => {
      if (first.has(name) || !byName.has(name)) return
      first.add(name)
      for (const imported of byName.get(name).imports) visit(imported)
    }
    for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName)
    const size = (chunk) => gzipSync(chunk.code, { level: 9 }).length
    return {
      first: chunks.filter((c) => first.has(c.fileName)).reduce((sum, c) => sum + size(c), 0),
      lazy: chunks.filter((c) => !first.has(c.fileName)).map((c) => `${c.fileName} ${kB(size(c))}`),
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

const page = await firstLoad('main.tsx')
const bare = await firstLoad('bare.tsx')
console.log(`partner page (React 19, TanStack Query, <ToolRunner tool="valuation/rent">): first load ${kB(page.first)}`)
console.log(`the same page without the kit: ${kB(bare.first)}; the kit adds ${kB(page.first - bare.first)}`)
for (const line of page.lazy) console.log(`  later: ${line}`)
