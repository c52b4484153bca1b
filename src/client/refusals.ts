import type { ToolDefinition } from './definition.js'
import type { ToolsError, ToolsErrorKind } from './errors.js'
import type { Interpretation } from './interpret.js'
import type { RetryPolicy } from './retry.js'
import type { SenderHost } from './senderHost.js'

// What a refused request means: its typed error, and when to try again. Part of the sender's chunk.

/** Capped exponential backoff with jitter (half fixed, half random). */
export function backoff(attempt: number, policy: RetryPolicy): number {
  const capped = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
  return Math.round(capped / 2 + (Math.random() * capped) / 2)
}

/** A day: no service means a longer Retry-After, and past it the number is surely garbled. */
const MAX_RETRY_AFTER = 86_400_000

/** RFC 9110's IMF-fixdate, e.g. `Sun, 06 Nov 1994 08:49:37 GMT`. */
const HTTP_DATE = /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/

/**
 * Retry-After in ms: delta-seconds (digits only) or an HTTP date, at most a day; undefined
 * when absent or unreadable (`-1`, `1.5`, `May 5`), so the caller backs off instead.
 */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  const text = header?.trim() ?? ''
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : HTTP_DATE.test(text) ? Date.parse(text) - now : NaN
  return Number.isNaN(ms) ? undefined : Math.min(MAX_RETRY_AFTER, Math.max(0, ms))
}

const KIND_BY_STATUS: Record<number, ToolsErrorKind> = {
  400: 'bad-request',
  401: 'unauthorized',
  402: 'billing',
  403: 'scope',
  404: 'not-found',
  429: 'rate-limit',
}

/**
 * The typed error for a non-2xx answer to a request of `tool` (none for an artifact). `call`
 * marks a tool call (POST), where a refusal may be the listing access error rather than its
 * status's usual kind. A 429 waits its Retry-After, else `backoff()`.
 */
export function errorFromResponse(
  { ToolsError, requestIdOf }: Pick<SenderHost, 'ToolsError' | 'requestIdOf'>,
  response: Response,
  body: unknown,
  interpret: Interpretation,
  tool: ToolDefinition | undefined,
  call: boolean,
  backoff: () => number,
): ToolsError {
  const { status } = response
  let kind: ToolsErrorKind = KIND_BY_STATUS[status] ?? (status >= 500 ? 'server' : 'bad-request')
  if (call && tool && interpret.isListingAccessError({ status, body, tool })) kind = 'listing-access'
  const scope = kind === 'scope' ? (tool?.scope ?? undefined) : undefined
  // A 403 where no scope is missing (a file, a tool any key may use) is just a refusal.
  if (kind === 'scope' && !scope) kind = 'bad-request'
  // Terse: a UI explains each kind in the person's language; the service's own words follow.
  const detail = interpret.errorMessage(body)
  const message = `${tool?.id ?? 'artifact'}: ${status} ${kind}${scope ? ` (needs ${scope})` : ''}${detail ? `: ${detail}` : ''}`
  return new ToolsError(kind, message, {
    status,
    tool: tool?.id,
    requestId: requestIdOf(body, response.headers),
    body,
    scope,
    // A proxy's spend cap (402) says when its window ends, as a rate limit does.
    retryAfter:
      kind === 'rate-limit'
        ? (parseRetryAfter(response.headers.get('retry-after')) ?? backoff())
        : kind === 'billing'
          ? parseRetryAfter(response.headers.get('retry-after'))
          : undefined,
  })
}
