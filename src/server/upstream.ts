import { thrownText } from './partnerHooks.js'
/** Why a request to the service came to nothing. */
export class UpstreamFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'redirect' | 'unreachable' | 'aborted' | 'too-large',
    message: string,
  ) {
    super(message)
  }
}

/** How many hops a download may take to a file host in `downloadOrigins`. */
const MAX_HOPS = 3

export const isRedirect = (response: Response) => response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)

/**
 * A timer for one request to the service: `start()` arms it (after an upload has gone by, or at
 * once for a read), `touch()` re-arms it while an upload is moving; when it fires, the request is
 * aborted as a timeout. `signal` also carries the page's own abort (none for a read shared by many pages).
 */
export function upstreamTimer(timeoutMs: number, pageSignal?: AbortSignal) {
  const controller = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let timedOut = false
  const start = () => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      timedOut = true
      controller.abort(new UpstreamFailure('timeout', `no answer in ${timeoutMs} ms`))
    }, timeoutMs)
  }
  const onPageAbort = () => controller.abort(new UpstreamFailure('aborted', 'the page went away'))
  if (pageSignal?.aborted) onPageAbort()
  else pageSignal?.addEventListener('abort', onPageAbort, { once: true })
  return {
    signal: controller.signal,
    start,
    touch: start,
    stop() {
      clearTimeout(timer)
      pageSignal?.removeEventListener('abort', onPageAbort)
    },
    get timedOut() {
      return timedOut
    },
    abort: (reason: UpstreamFailure) => controller.abort(reason),
  }
}

/** What a fetch rejection means: the page left, the time ran out, or the service could not be reached. */
export function failureOf(error: unknown, timer: { timedOut: boolean; signal: AbortSignal }): UpstreamFailure {
  if (error instanceof UpstreamFailure) return error
  if (timer.signal.aborted && timer.signal.reason instanceof UpstreamFailure) return timer.signal.reason
  return new UpstreamFailure('unreachable', thrownText(error))
}

/**
 * Failures from before a request's first byte left: DNS, a refused or unreachable connection, a
 * connect timeout, a TLS handshake that failed (certificate, protocol), as Node's undici codes them.
 */
const BEFORE_SEND_CODES =
  /^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|UND_ERR_CONNECT_TIMEOUT|ERR_INVALID_URL|ERR_TLS_CERT_ALTNAME_INVALID|ERR_SSL_.*|CERT_.*|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_(GET|VERIFY)_.*)$/
/**
 * What fetch refuses before any connection, by its message: undici's network errors for a port the
 * Fetch standard blocks ("bad port") or a scheme it cannot fetch, an URL that does not parse;
 * workerd's own wording for the same.
 */
const BEFORE_SEND_MESSAGES = /^(bad port|URL scheme must be a HTTP\(S\) scheme|Failed to parse URL.*|Invalid URL.*|unknown scheme|Fetch API cannot load.*)$/i

/** Whether a failed request can have reached the service at all: one that failed before it was sent cannot. */
export function neverArrived(error: unknown): boolean {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
  if (typeof cause?.code === 'string' && BEFORE_SEND_CODES.test(cause.code)) return true
  const messages = [cause?.message, error instanceof TypeError ? error.message : undefined]
  return messages.some((message) => typeof message === 'string' && BEFORE_SEND_MESSAGES.test(message))
}

/**
 * Follows a download's redirects by hand, at most a few hops and only to `downloadOrigins`, with
 * no Authorization: the key goes to the service's origin only. Any other redirect is a failure.
 */
export async function followDownload(
  first: Response,
  from: string,
  downloadOrigins: readonly string[],
  fetcher: typeof fetch,
  signal: AbortSignal,
): Promise<Response> {
  let response = first
  let url = from
  for (let hop = 0; isRedirect(response); hop++) {
    const location = response.headers.get('location')
    await response.body?.cancel()
    let next: URL | undefined
    try {
      next = location ? new URL(location, url) : undefined
    } catch {
      next = undefined
    }
    if (!next || hop >= MAX_HOPS || !downloadOrigins.includes(next.origin)) {
      throw new UpstreamFailure('redirect', `a download redirected to ${next ? next.origin : 'nowhere'}, which is not in downloadOrigins`)
    }
    url = next.href
    response = await fetcher(url, { redirect: 'manual', signal, headers: { Accept: '*/*' } })
  }
  return response
}

/** A body's text, failing past `maxBytes` without reading further. */
export async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const length = Number(response.headers.get('content-length'))
  if (length > maxBytes) {
    await response.body?.cancel()
    throw new UpstreamFailure('too-large', `an answer of ${length} bytes`)
  }
  if (!response.body) return ''
  // A declared length of an unencoded body is kept to by fetch: read it at once.
  if (length <= maxBytes && response.headers.has('content-length') && !response.headers.has('content-encoding')) return response.text()
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let seen = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return text + decoder.decode()
    seen += value.byteLength
    if (seen > maxBytes) {
      await reader.cancel()
      throw new UpstreamFailure('too-large', `an answer over ${maxBytes} bytes`)
    }
    text += decoder.decode(value, { stream: true })
  }
}
