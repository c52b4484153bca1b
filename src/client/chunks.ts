import type { CallOptions } from './definition.js'
import { ToolsError, type ToolsErrorInit } from './errors.js'
import { pagePresence } from './presence.js'
import { sleep } from './retry.js'

// Code some calls need, fetched when first needed (chunks of their own), and the wait for it.

export type LoadWaitOptions = Pick<CallOptions, 'signal' | 'onWait' | 'presence'>

/**
 * What `load` gives: code fetched when first used (a chunk of its own). A load that fails offline
 * waits for the connection like any request, and says so, then tries again; one that fails online
 * is fetched again after 1 s, 2 s and 4 s, saying `retrying` (Chromium, Firefox and Safari fetch
 * a failed module again on a new `import()`), then is a `network`
 * error (`what` could not be loaded), carrying `init` (the tool, the job). Never `unexpected`.
 */
export async function whenLoaded<T>(
  load: () => Promise<T>,
  what: string,
  init: ToolsErrorInit,
  { signal, onWait, presence = pagePresence }: LoadWaitOptions,
): Promise<T> {
  let retries = 0 // failed fetches while online
  for (;;) {
    try {
      return await load()
    } catch (cause) {
      const offline = presence.offline()
      const delay = offline ? Infinity : retries < 3 ? 1000 << retries++ : undefined
      if (delay === undefined) throw new ToolsError('network', `${what} could not be loaded.`, { ...init, cause })
      onWait?.(offline ? { reason: 'offline' } : { reason: 'retrying', attempt: retries, until: Date.now() + delay })
      try {
        await sleep(delay, signal, init.tool, presence.subscribe)
      } finally {
        onWait?.(null)
      }
    }
  }
}

/** Runs `load` once the page is idle (a failure is left to the load's next caller); returns the cancel. */
export function whenIdle(load: () => Promise<unknown>): () => void {
  const run = () => void load().catch(() => undefined)
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(run, { timeout: 2000 })
    return () => cancelIdleCallback(id)
  }
  const timer = setTimeout(run, 200)
  return () => clearTimeout(timer)
}

/** `load` once for every caller; a failed load (offline) is forgotten, so the next use tries again. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
}
