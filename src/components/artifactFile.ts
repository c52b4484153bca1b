// What a result file is called and how safely it can be shown, from its link and its media type.

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
 * Types a browser shows as a passive document. A `blob:` URL carries the host page's origin, so
 * opening one of an HTML, SVG or XML file in a tab would run its scripts as the partner's site:
 * those (and anything untyped, which a browser may sniff) are offered as a download only.
 */
const SAFE_IN_A_TAB = /^(image\/(png|jpeg|webp|gif|avif)|video\/[\w.+-]+|audio\/[\w.+-]+|application\/pdf|text\/plain|application\/json)$/

/** The media type without parameters, lower case: `text/html; charset=utf-8` → `text/html`. */
export function mediaType(type: string): string {
  return type.split(';')[0]!.trim().toLowerCase()
}

/**
 * The name a download gets: the link's last path segment, decoded, with the extension of
 * `type` added when the segment has none. `download` when the link names nothing.
 */
export function artifactFileName(url: string, type: string): string {
  const segment = lastPathSegment(url)
  let name = segment
  try {
    name = decodeURIComponent(segment)
  } catch {
    // A stray "%" that is not an escape: keep the segment as written.
  }
  // Path separators in a decoded name would read as folders to some download managers.
  name = name.replace(/[/\\]/g, '_').trim() || 'download'
  const media = mediaType(type)
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

/** Whether a `blob:` URL of this type may be opened in a new tab (see `SAFE_IN_A_TAB`). */
export function opensSafelyInATab(type: string): boolean {
  return SAFE_IN_A_TAB.test(mediaType(type))
}
