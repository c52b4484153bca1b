// The proxy as a Worker for workerd (test/support/proxy-worker.ts), bundled once per test file by
// Vite as a partner's bundler would, and Workers running it in Miniflare.
import { fileURLToPath } from 'node:url'
import { Miniflare } from 'miniflare'
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

/** A Worker of `startWorkers`: its name, what it adds to the shared bindings, and its state binding's class (none: no TOOLS_STATE, memoryStore). */
export interface WorkerSpec {
  name: string
  bindings?: Record<string, string>
  className?: string | false
}

/**
 * Workers running `script` in one workerd, each an isolate with its own module memory; those with
 * a `className` are bound as TOOLS_STATE to objects of that class exported by the first Worker
 * (SQLite-backed), so they share one namespace. Resolves with each Worker's own URL.
 */
export async function startWorkers(script: string, bindings: Record<string, string>, workers: WorkerSpec[]) {
  const host = workers[0]!.name
  const mf = new Miniflare({
    workers: workers.map(({ name, bindings: own, className = 'ToolsProxyState' }) => ({
      name,
      modules: true,
      scriptPath: script,
      compatibilityDate: COMPATIBILITY_DATE,
      bindings: { ...bindings, ...own },
      durableObjects: className ? { TOOLS_STATE: { className, useSQLite: true, ...(name !== host && { scriptName: host }) } } : {},
      unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
    })),
  })
  await mf.ready
  const urls: Record<string, string> = {}
  for (const { name } of workers) urls[name] = (await mf.unsafeGetDirectURL(name)).href.replace(/\/+$/, '')
  return { urls, dispose: () => mf.dispose() }
}
