import type { CallOptions } from './definition.js'
import type { Send } from './send.js'

// A chunk of its own, fetched at the first download: it imports nothing a page's first load has,
// so no bundler splits a third chunk off.

/** A downloaded result file, with the name the service gave it in `Content-Disposition`, if any. */
export interface ArtifactFile {
  blob: Blob
  /** As sent: clean it before showing or saving it (the components do). */
  fileName?: string
}

/** Downloads a result link (already checked to be on the service's origin) with the key. */
export async function downloadArtifact(send: Send, target: URL, opts: Pick<CallOptions, 'signal'>): Promise<ArtifactFile> {
  const response = await send(undefined, target.href, { signal: opts.signal })
  return { blob: await response.blob(), fileName: dispositionFileName(response.headers.get('content-disposition')) }
}

/**
 * The file name a `Content-Disposition` header gives: `filename*` (RFC 6266, percent-encoded UTF-8)
 * before `filename`; undefined when it names none. Not yet safe to show or save: the caller cleans
 * it (control and direction characters, path separators).
 */
export function dispositionFileName(header: string | null): string | undefined {
  const extended = /filename\*\s*=\s*[\w-]*'[^']*'([^;\s]+)/i.exec(header ?? '')
  try {
    if (extended) return decodeURIComponent(extended[1]!)
  } catch {
    // Not UTF-8 percent-encoding: the plain parameter is the fallback it is meant to be.
  }
  const plain = /filename\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/i.exec(header ?? '')?.[1]!.trim()
  return plain?.replace(/^"([^]*)"$/, '$1').replace(/\\(.)/g, '$1') || undefined
}
