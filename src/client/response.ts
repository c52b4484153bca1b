import type { ToolDefinition } from './definition.js'
import { ToolsError, type ToolsErrorKind } from './errors.js'
import type { Interpretation } from './interpret.js'
import { parseRetryAfter } from './retry.js'

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
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>
    const nested = record.error && typeof record.error === 'object' ? (record.error as Record<string, unknown>) : {}
    for (const value of [record.requestId, record.request_id, nested.requestId, nested.request_id]) {
      if (typeof value === 'string' && value !== '') return value
    }
  }
  return headers?.get('x-request-id') ?? headers?.get('request-id') ?? undefined
}

const KIND_BY_STATUS: Record<number, ToolsErrorKind> = {
  400: 'bad-request',
  401: 'unauthorized',
  402: 'billing',
  403: 'scope',
  404: 'not-found',
  429: 'rate-limit',
}

const DEFAULT_TEXT: Partial<Record<ToolsErrorKind, string>> = {
  'bad-request': 'The service refused the request.',
  unauthorized: 'The API key was refused.',
  billing: "The wallet has too little money, or the plan's quota is used up.",
  'listing-access': 'The listing or collection belongs to another account.',
  'not-found': 'No such job for this key.',
  'rate-limit': 'Too many requests: the rate limit was hit.',
  server: 'The service failed to answer.',
}

/**
 * The typed error for a non-2xx answer. `call` marks a tool call (POST), where a refusal may
 * be the listing access error rather than its status's usual kind.
 */
export function errorFromResponse(
  response: Response,
  body: unknown,
  tool: ToolDefinition,
  interpret: Interpretation,
  call: boolean,
): ToolsError {
  const { status } = response
  let kind: ToolsErrorKind = KIND_BY_STATUS[status] ?? (status >= 500 ? 'server' : 'bad-request')
  if (call && kind !== 'billing' && kind !== 'rate-limit' && kind !== 'unauthorized' && status < 500) {
    if (interpret.isListingAccessError({ status, body, tool })) kind = 'listing-access'
  }
  const scope = kind === 'scope' ? (tool.scope ?? undefined) : undefined
  const base =
    kind === 'scope'
      ? scope
        ? `This key lacks the scope ${scope}.`
        : 'This key may not use this tool.'
      : (DEFAULT_TEXT[kind] ?? 'The request failed.')
  const detail = interpret.errorMessage(body)
  return new ToolsError(kind, detail ? `${base} (${status}: ${detail})` : `${base} (${status})`, {
    status,
    tool: tool.id || undefined,
    requestId: requestIdOf(body, response.headers),
    body,
    scope,
    retryAfter: kind === 'rate-limit' ? parseRetryAfter(response.headers.get('retry-after')) : undefined,
  })
}

export function malformed(tool: ToolDefinition, what: string, body: unknown, status: number): ToolsError {
  return new ToolsError('server', `The service sent a malformed answer: ${what}.`, {
    status,
    tool: tool.id,
    body,
    requestId: requestIdOf(body),
  })
}
