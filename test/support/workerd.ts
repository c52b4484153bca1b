// The proxy as a Worker for workerd (test/support/proxy-worker.ts), bundled once per test file by
// Vite as a partner's bundler would, for Miniflare to run.
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

export const COMPATIBILITY_DATE = '2026-04-01'

/** Bundles test/support/proxy-worker.ts into one module under `name`; resolves with its path. */
export async function buildProxyWorker(name: string): Promise<string> {
  const outDir = fileURLToPath(new URL(`../../node_modules/.cache/${name}`, import.meta.url))
  await build({
    configFile: false,
    logLevel: 'silent',
    ssr: { noExternal: true, target: 'webworker' },
    build: {
      ssr: fileURLToPath(new URL('./proxy-worker.ts', import.meta.url)),
      outDir,
      emptyOutDir: true,
      rolldownOptions: { output: { entryFileNames: 'proxy-worker.mjs', codeSplitting: false } },
    },
  })
  return `${outDir}/proxy-worker.mjs`
}
