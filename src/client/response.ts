import type { ToolDefinition } from './definition.js'
import { ToolsError, type ToolsErrorKind } from './errors.js'
import type { Interpretation } from './interpret.js'
import { pickString } from './record.js'
import { parseRetryAfter } from './retry.js'
import type { ClientSettings } from './settings.js'

/** The body as JSON where it parses, else its text; undefined when empty. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

export function requestIdOf(body: unknown, headers?: Headers): string | undefined {
  return pickString(body, ['requestId', 'request_id']) ?? headers?.get('x-request-id') ?? undefined
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

export function malformed(tool: ToolDefinition, what: string, body: unknown, status: number): ToolsError {
  return new ToolsError('server', `Malformed answer: ${what}.`, {
    status,
    tool: tool.id,
    body,
    requestId: requestIdOf(body),
  })
}

/** Every result link in a body: URLs under `{baseUrl}/artifacts/`, as `interpret.artifacts` finds them. */
export const linksIn = (settings: ClientSettings, body: unknown) => settings.interpret.artifacts(body, `${settings.base()}/artifacts/`)
