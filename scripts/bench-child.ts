// A bench script built to JavaScript for plain Node to run in a process of its own (Vite's SSR
// build: the sources bundled, dependencies left as imports), as a partner's server runs the package.
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

/** Builds `scripts/<name>.ts` to `node_modules/.cache/<name>/child.mjs`; answers that file's path. */
export async function buildChild(name: string): Promise<string> {
  // Paths, not URLs: jsdom's URL is not the one `fileURLToPath` takes.
  const here = dirname(fileURLToPath(import.meta.url))
  const outDir = join(here, `../node_modules/.cache/${name}`)
  await build({
    configFile: false,
    logLevel: 'silent',
    build: { ssr: join(here, `${name}.ts`), outDir, emptyOutDir: true, rolldownOptions: { output: { entryFileNames: 'child.mjs' } } },
  })
  return join(outDir, 'child.mjs')
}
