// An import bundled by esbuild: minified, code split, ESM, peers external.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'
import { entrySource, gzip, staticClosure } from './entries.mjs'

/** One import's chunks (`lazy` when reached only by `import()`), each with its modules' minified bytes. */
export async function measureEsbuild(check, { dir, peers }) {
  const out = join(dir, `esbuild-${check.page}`)
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
  const statics = (file) => outputs[file].imports.filter((imp) => imp.kind === 'import-statement' && outputs[imp.path]).map((imp) => imp.path)
  const first = staticClosure([entry], statics)
  return Object.keys(outputs)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({
      file,
      lazy: !first.has(file),
      gzip: gzip(readFileSync(file)),
      inputs: Object.entries(outputs[file].inputs).map(([input, { bytesInOutput }]) => ({ input, bytes: bytesInOutput })),
    }))
}
