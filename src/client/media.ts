// Reading media types and the names files come with: one rule each, for the client, the hooks,
// the components and the simulated service.

/** The media type without parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
export function mediaType(type: string | null | undefined): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase()
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
