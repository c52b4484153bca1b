// The network project's global setup: the partner's page, built once for every file on dist/. `npm
// test` on a fresh clone has not built dist/ (CI builds before testing): it is built here then.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { TestProject } from 'vitest/node'
import { buildPage } from './site.js'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The built page's folder. */
    pageDir: string
  }
}

export default async function setup(project: TestProject) {
  const root = fileURLToPath(new URL('../../', import.meta.url))
  if (!existsSync(`${root}dist/entries/index.js`)) {
    const built = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' })
    if (built.status !== 0) throw new Error('dist/ could not be built for the network tests (npm run build).')
  }
  const page = await buildPage()
  project.provide('pageDir', page.out)
  return () => page.remove()
}
