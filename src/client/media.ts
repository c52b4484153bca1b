// Reading media types and the names files come with: one rule each, for the client, the hooks,
// the components and the simulated service.

/** The media type without parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
export function mediaType(type: string | null | undefined): string {
  return (type ?? '').split(';')[0]!.trim().toLowerCase()
}

/**
 * The file name a `Content-Disposition` header gives: `filename*` (RFC 5987/6266, percent-encoded
 * UTF-8 or Latin-1) before `filename`; undefined when it names none. Not yet safe to show or save:
 * the caller cleans it (control and direction characters, path separators).
 */
export function dispositionFileName(header: string | null | undefined): string | undefined {
  if (!header) return undefined
  const extended = /(?:^|;)\s*filename\*\s*=\s*([\w!#$%&+.^`|~-]*)'[^']*'([^;\s]+)/i.exec(header)
  if (extended) {
    try {
      const bytes = extended[2]!.replace(/^"|"$/g, '')
      const charset = extended[1]!.toLowerCase()
      const decoded =
        charset === 'utf-8' || charset === ''
          ? decodeURIComponent(bytes)
          : bytes.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      if (decoded) return decoded
    } catch {
      // Not valid percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/i.exec(header)
  const name = plain ? (plain[1]?.replace(/\\(.)/g, '$1') ?? plain[2]!.trim()) : undefined
  return name || undefined
}
