// What a result file is called when it is saved: from the service's own name or the link, cleaned.
import { mediaType } from '../react/internal.js'

/** Types whose usual extension is not their subtype; for the rest, `image/png` → `png` will do. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'application/xhtml+xml': 'xhtml',
  'text/plain': 'txt',
}

/**
 * Characters a saved name must not carry: controls (C0, DEL, C1), direction marks and overrides
 * (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069: "invoice‮fdp.exe" shows as "invoiceexe.pdf"),
 * zero-width and line separators, and what file systems read as folders or refuse (`/ \ : * ? " < > |`).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff/\\:*?"<>|]/g

/**
 * The name a download gets: `given` (the service's `Content-Disposition` name) when there is one,
 * else the link's last path segment, decoded; cleaned of characters that could disguise or
 * misplace it, with the extension of its `Content-Type` added when it has none. `download` when
 * nothing is left.
 */
export function artifactFileName(url: string, type: string, given?: string): string {
  return savedFileName(url, mediaType(type), given)
}

/**
 * `artifactFileName` for a type already in `mediaType`'s form (`image/png`): what the viewer's
 * chunk calls, given that form by the page, so the chunk shares no module with the first load.
 */
export function savedFileName(url: string, media: string, given?: string): string {
  let name = given ?? lastPathSegment(url)
  if (given === undefined) {
    try {
      name = decodeURIComponent(name)
    } catch {
      // A stray "%" that is not an escape: keep the segment as written.
    }
  }
  // Leading dots would hide the file; trailing dots and spaces are dropped by some systems, so say what is kept.
  name = name.trim().replace(UNSAFE, '_').replace(/^[\s.]+|[\s.]+$/g, '').slice(0, 200) || 'download'
  const extension = EXTENSIONS[media] ?? media.split('/')[1] ?? ''
  // A subtype such as `octet-stream` or `vnd.ms-excel` is no extension: leave the name as it is.
  return /^[a-z0-9]{2,5}$/.test(extension) && !/\.[a-z0-9]{1,8}$/i.test(name) ? `${name}.${extension}` : name
}

/** The link's last path segment, still encoded; empty when the path names nothing. */
function lastPathSegment(url: string): string {
  let path: string
  try {
    // A base makes root-relative links readable too; nothing is fetched.
    path = new URL(url, 'https://artifact.invalid/').pathname
  } catch {
    path = url.split(/[?#]/)[0]!
  }
  return path.split('/').filter(Boolean).at(-1) ?? ''
}
