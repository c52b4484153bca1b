import { PROXY_ERROR_CODES, type ProxyErrorCode } from '../tools/index.js'
import type { Scrubber } from './scrub.js'

/** Headers on every answer of the proxy: per-user content, never cached by a shared cache, never sniffed. */
export const SAFE_HEADERS = { 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' } as const

/** An answer in the service's error shape, `{ error: { code, message } }`, so the browser's client reads it as it reads the service's. */
export function errorAnswer(
  status: number,
  code: ProxyErrorCode,
  message: string,
  extra: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Response {
  const answer = Response.json(
    { error: { code: PROXY_ERROR_CODES[code], message, ...extra.details } },
    { status, headers: { ...SAFE_HEADERS, ...extra.headers } },
  )
  codes.set(answer, PROXY_ERROR_CODES[code])
  return answer
}

/** The code of each of the proxy's own error answers, for its telemetry: never read back from a body. */
const codes = new WeakMap<Response, (typeof PROXY_ERROR_CODES)[ProxyErrorCode]>()

/** `answer`, told to the telemetry as the proxy's own error answer with `code` (one built from a kept reply). */
export function withProxyCode(answer: Response, code: (typeof PROXY_ERROR_CODES)[ProxyErrorCode]): Response {
  codes.set(answer, code)
  return answer
}

/** The proxy's own error code, when `answer` is one of its error answers. */
export const proxyCodeOf = (answer: Response) => codes.get(answer)

/** The service's headers that mean something to the browser's client, each in the form it takes: a request id, seconds or a date, a yes or no. */
const RELAYED: Record<string, RegExp> = {
  'x-request-id': /^[\w.:-]{1,200}$/,
  'retry-after': /^(\d{1,10}|[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT)$/,
  'idempotent-replayed': /^(true|false)$/i,
}

/** The service's headers that mean something to the browser's client, in their own form and naming no service address; nothing else crosses. */
export function relayedHeaders(from: Headers, scrub?: Scrubber): Record<string, string> {
  const headers: Record<string, string> = { ...SAFE_HEADERS }
  for (const [name, form] of Object.entries(RELAYED)) {
    const value = from.get(name)
    if (value !== null && form.test(value) && !scrub?.names(value)) headers[name] = value
  }
  return headers
}

/**
 * Media types no browser runs as a document with scripts: images (not SVG), video, audio, PDF,
 * plain text, JSON, zip and raw bytes. Anything else, or a type a browser could read two ways
 * (`text/plain, text/html`), is served as an attachment under a sandboxing CSP.
 */
const PASSIVE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/[\w.+-]+|audio\/[\w.+-]+|application\/(pdf|json|zip|octet-stream)|text\/plain)$/

/** The one media type of a Content-Type, or undefined when it has none or more than one. */
function mediaTypeOf(contentType: string | null): string | undefined {
  const media = contentType?.split(';')[0]!.trim().toLowerCase()
  return media && /^[\w.+-]+\/[\w.+-]+$/.test(media) ? media : undefined
}

/** A file from the service, passed through as it streams, with the headers a download needs and no others. */
export function downloadAnswer(upstream: Response, path: string, scrub: Scrubber): Response {
  // No type at all is ambiguous too: a browser would sniff one.
  const type = upstream.headers.get('content-type') ?? ''
  const media = mediaTypeOf(type)
  const passive = media !== undefined && PASSIVE.test(media)
  const headers: Record<string, string> = {
    ...relayedHeaders(upstream.headers, scrub),
    'Content-Type': passive ? type : (media ?? 'application/octet-stream'),
    'Content-Disposition': `${passive ? 'inline' : 'attachment'}; filename="${fileNameOf(path)}"`,
    'Cross-Origin-Resource-Policy': 'same-origin',
  }
  // fetch has already decoded a compressed answer, so its Content-Length would no longer fit.
  const length = upstream.headers.get('content-length')
  if (length !== null && /^\d+$/.test(length) && !upstream.headers.has('content-encoding')) headers['Content-Length'] = length
  // Opened directly, a page or an SVG runs in an opaque origin with no scripts and loads nothing.
  if (!passive) {
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
