/** Headers on every answer of the proxy: per-user content, never cached by a shared cache, never sniffed. */
export const SAFE_HEADERS = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' } as const

/** An answer in the service's error shape, `{ error: { code, message } }`, so the browser's client reads it as it reads the service's. */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  extra: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Response {
  return Response.json({ error: { code, message, ...extra.details } }, { status, headers: { ...SAFE_HEADERS, ...extra.headers } })
}

/** The service's headers that mean something to the browser's client; nothing else crosses. */
export function relayedHeaders(from: Headers): Record<string, string> {
  const headers: Record<string, string> = { ...SAFE_HEADERS }
  for (const name of ['x-request-id', 'retry-after', 'idempotent-replayed']) {
    const value = from.get(name)
    if (value !== null) headers[name] = value
  }
  return headers
}

/** Media types a browser would run as a document with scripts: served only under a sandboxing CSP. */
const ACTIVE = /^(text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[a-z]+\/[\w.-]+\+xml)$/

/** A file from the service, passed through as it streams, with the headers a download needs and no others. */
export function downloadAnswer(upstream: Response, path: string): Response {
  const type = upstream.headers.get('content-type') || 'application/octet-stream'
  const media = type.split(';')[0]!.trim().toLowerCase()
  const headers: Record<string, string> = {
    ...relayedHeaders(upstream.headers),
    'Content-Type': type,
    'Content-Disposition': `inline; filename="${fileNameOf(path)}"`,
    'Cross-Origin-Resource-Policy': 'same-origin',
  }
  // fetch has already decoded a compressed answer, so its Content-Length would no longer fit.
  const length = upstream.headers.get('content-length')
  if (length !== null && /^\d+$/.test(length) && !upstream.headers.has('content-encoding')) headers['Content-Length'] = length
  // Opened directly, a page or an SVG runs in an opaque origin with no scripts and loads nothing.
  if (ACTIVE.test(media)) {
    headers['Content-Security-Policy'] = "sandbox; default-src 'none'; img-src data: blob:; media-src data: blob:; style-src 'unsafe-inline'"
  }
  return new Response(upstream.body, { status: upstream.status, headers })
}

/** The file name a link ends with, reduced to characters safe in a header; `download` when there is none. */
export function fileNameOf(path: string): string {
  const last = path.split('?')[0]!.split('/').pop() ?? ''
  let name = last
  try {
    name = decodeURIComponent(last)
  } catch {
    // keep it encoded
  }
  const safe = name.replace(/[^\w.\- ]+/g, '_').replace(/^[.\s]+/, '').slice(0, 120)
  return safe && !/^artifacts?$/.test(safe) ? safe : 'download'
}
