// An import in a Vite 8 (Rolldown) production build: minified, code split, peers external; the
// entry keeps its exports (as a library's page module does), so nothing it names is shaken off.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'vite'
import { entrySource, gzip, staticClosure } from './entries.mjs'

export async function measureVite(check, { dir, peers }) {
  const root = mkdtempSync(join(dir, `vite-${check.page}-`))
  const input = join(root, 'page.js')
  writeFileSync(input, entrySource(check))
  const isPeer = (id) => peers.some((name) => id === name || id.startsWith(`${name}/`))
  try {
    const result = await build({
      root,
      configFile: false,
      logLevel: 'silent',
      build: {
        write: false,
        outDir: join(root, 'out'),
        modulePreload: { polyfill: false },
        rolldownOptions: { input, external: isPeer, preserveEntrySignatures: 'exports-only' },
      },
    })
    const output = (Array.isArray(result) ? result[0] : result).output.filter((item) => item.type === 'chunk')
    const byName = new Map(output.map((chunk) => [chunk.fileName, chunk]))
    const statics = (name) => byName.get(name)?.imports.filter((imported) => byName.has(imported)) ?? []
    const first = staticClosure(output.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName), statics)
    return output.map((chunk) => ({
      file: chunk.fileName,
      lazy: !first.has(chunk.fileName),
      gzip: gzip(chunk.code),
      inputs: Object.entries(chunk.modules).map(([input, { renderedLength }]) => ({ input, bytes: renderedLength })),
    }))
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}
