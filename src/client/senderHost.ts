import type { Presence } from './definition.js'
import type { ToolsError } from './errors.js'

/**
 * What the sender's chunk (send.ts, and the pacer, refusals and transport it brings) receives of
 * the first load when it is created, rather than importing it: a code-splitting bundler puts a
 * module that both a page's first load and a chunk import into a third chunk, one more request on
 * every page. Declared here, for this boundary alone; the first load's chunkKit implements it.
 * Measured (`npm run size`): the sender's and jobs' chunks importing these instead adds about
 * 0.5–0.8 kB gz to each import's first load with esbuild, 0.7–0.9 with Vite, none with Next.js.
 */
export interface SenderHost {
  ToolsError: typeof ToolsError
  abortError(tool?: string, cause?: unknown): ToolsError
  isToolsError(value: unknown): value is ToolsError
  /** Whether the page is hidden or the device offline, and word when that changes. */
  pagePresence: Presence
  /** A response's body: JSON when it parses, else its text; undefined when empty. */
  readBody(response: Response): Promise<unknown>
  requestIdOf(body: unknown, headers?: Headers): string | undefined
  /** Resolves after `ms` (sooner when `wake` calls back); rejects with `aborted` when the signal fires. */
  sleep(ms: number, signal?: AbortSignal, tool?: string, wake?: (callback: () => void) => () => void): Promise<void>
  /** Who a key is, without the key: names the key's pacer. */
  fingerprint(baseUrl: string, key: string | null | undefined, user?: string): string
  /** The upload chunk (XMLHttpRequest, for a file's progress), loaded once. */
  loadUploads(): Promise<typeof import('./xhr.js')>
  /** The longest delay a timer takes. */
  MAX_TIMER: number
}
