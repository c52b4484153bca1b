import type { ToolId } from '../tools/index.js'
import { errorResponse } from './http.js'
import type { MockFaultInjection, MockRequestKind } from './types.js'

/** What a fault is matched against. */
export interface FaultTarget {
  tool?: ToolId
  method: string
  kind: MockRequestKind
}

/** Injected faults waiting for the requests they match, applied first-injected first. */
export function createFaultQueue() {
  const pending: { injection: MockFaultInjection; remaining: number }[] = []
  return {
    add(injection: MockFaultInjection) {
      const times = injection.times ?? 1
      if (!(times > 0)) throw new RangeError(`A fault must hit at least one request (times: ${times}).`)
      pending.push({ injection, remaining: times })
    },
    /** The fault that hits this request, if any, counting it as used. */
    take(target: FaultTarget): MockFaultInjection | undefined {
      const index = pending.findIndex(({ injection: { match = {} } }) =>
        (match.tool === undefined || match.tool === target.tool) &&
        (match.method === undefined || match.method === target.method) &&
        (match.kind === undefined || match.kind === target.kind),
      )
      const hit = pending[index]
      if (!hit) return undefined
      if (--hit.remaining === 0) pending.splice(index, 1)
      return hit.injection
    },
    clear() {
      pending.length = 0
    },
  }
}

/** What the client receives in place of the service's answer. */
export function faultResponse(injection: MockFaultInjection, requestId: string): Response {
  switch (injection.fault) {
    case 'lost':
    case 'held':
    case 'network':
      return Response.error()
    case 'server-error':
      return errorResponse(requestId, 500, 'internal_error', 'The service failed unexpectedly. Try again.')
    case 'html-error':
      return new Response(
        '<!doctype html><html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><p>The upstream server did not answer.</p></body></html>',
        { status: 502, headers: { 'Content-Type': 'text/html; charset=utf-8', 'X-Request-Id': requestId } },
      )
    case 'rate-limit': {
      return errorResponse(requestId, 429, 'rate_limited', 'Too many requests. Retry later.', {
        headers: { 'Retry-After': retryAfterHeader(injection) },
      })
    }
  }
}

/**
 * The Retry-After of an injected 429: seconds (a fraction kept as given, for tests on a short
 * clock), or an HTTP date, rounded up to its whole second so the pause is never shorter than asked.
 */
function retryAfterHeader({ retryAfterMs, retryAfter }: MockFaultInjection): string {
  const pause = retryAfterMs ?? (typeof retryAfter === 'number' ? retryAfter * 1000 : retryAfter) ?? 1000
  if (typeof pause === 'number') return String(pause / 1000)
  return new Date(Math.ceil(pause.getTime() / 1000) * 1000).toUTCString()
}
