// What `npm run size` measures: each import a page makes, and how a chunk is told by its content.
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'

export const kB = (bytes) => `${(bytes / 1000).toFixed(2)} kB`
export const gzip = (code) => gzipSync(code, { level: 9 }).length

/** `page` names the Next.js page (scripts/size/next-app/app/<page>/page.jsx) of the same import. */
export const imports = [
  { name: "{ createToolsClient } from '/client'", page: 'client', from: 'dist/entries/client.js', names: '{ createToolsClient }' },
  { name: 'provider + one hook', page: 'hook', from: 'dist/entries/index.js', names: '{ ToolsProvider, useValuationReport }' },
  { name: 'provider + <ToolRunner>', page: 'runner', from: 'dist/entries/index.js', names: '{ ToolsProvider, ToolRunner }' },
  { name: 'export *', page: 'all', from: 'dist/entries/index.js', names: '*' },
]

/** The import as a module of a page: re-exported, so nothing it names is shaken off. */
export function entrySource({ from, names }) {
  const path = JSON.stringify(join(process.cwd(), from))
  return names === '*' ? `export * from ${path}` : `export ${names} from ${path}`
}

/** A module's name for the tables: a package by its name, our own files by their dist (or src) path. */
export function moduleName(input) {
  const nm = input.lastIndexOf('node_modules/')
  if (nm === -1) return relative(process.cwd(), input).replace(/^dist\//, '')
  const rest = input.slice(nm + 'node_modules/'.length).split('/')
  if (rest[0] === '@cabinet' && rest[1] === 'tools-react') return rest.slice(2).join('/').replace(/^(dist|src)\//, '')
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]
}

/** The modules of a chunk by what each costs, most first. */
export function costs(inputs, top = Infinity) {
  const byModule = new Map()
  for (const { input, bytes } of inputs) {
    const name = moduleName(input)
    byModule.set(name, (byModule.get(name) ?? 0) + bytes)
  }
  return [...byModule].sort((a, b) => b[1] - a[1]).slice(0, top)
}

/** The first load: the entries and every chunk they import statically, by `imports(file)`. */
export function staticClosure(entries, imports) {
  const first = new Set()
  const visit = (file) => {
    if (first.has(file)) return
    first.add(file)
    for (const imported of imports(file)) visit(imported)
  }
  entries.forEach(visit)
  return first
}
