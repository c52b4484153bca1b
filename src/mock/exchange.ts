import type { Tool } from '../tools/index.js'
import { faultResponse } from './faults.js'
import { errorResponse, newId } from './http.js'
import { mediaTypeOf } from './request.js'
import type { Caller, ServiceState } from './state.js'
import type { MockLogEntry, MockRequestKind } from './types.js'

/** One request as an answer sees it, after the key check. */
export interface Exchange {
  request: Request
  params: Record<string, string | undefined>
  caller: Caller
  requestId: string
  entry: MockLogEntry
}

/** What one endpoint answers a caller whose key is known. */
export type Answer = (exchange: Exchange) => Response | Promise<Response>

function bearerKey(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
  return match?.[1]
}

/**
 * Wraps an answer in what every request to `state` gets: latency, injected faults, the key check
 * and a log entry.
 */
export function serveOn(state: ServiceState) {
  return (kind: MockRequestKind, tool: Tool | undefined, answer: Answer) =>
    async (request: Request, params: Exchange['params']): Promise<Response> => {
      const at = Date.now()
      const arrival = state.arrival()
      if (state.latency > 0) await new Promise((resolve) => setTimeout(resolve, state.latency))
      const requestId = newId('req')
      const key = bearerKey(request)
      const caller = state.caller(key)
      const entry: MockLogEntry = {
        at,
        method: request.method,
        path: state.relativePath(request.url),
        kind,
        tool: tool?.id,
        key,
        account: caller?.account.id,
        idempotencyKey: request.headers.get('idempotency-key') ?? undefined,
        status: 0,
        billed: null,
        replay: false,
        contentType: mediaTypeOf(request),
      }
      const fault =
        state.faults.take({ tool: tool?.id, method: request.method, kind }) ??
        (caller?.account.fault === undefined ? undefined : { fault: caller.account.fault })
      let response: Response
      const processed = fault?.fault === 'lost' || fault?.fault === 'held'
      if (fault && !processed) {
        response = faultResponse(fault, requestId)
      } else if (!caller) {
        response = errorResponse(
          requestId,
          401,
          'unauthorized',
          key ? 'This API key is not known.' : 'Send the API key in the header Authorization: Bearer <key>.',
          { headers: { 'WWW-Authenticate': 'Bearer' } },
        )
      } else {
        response = await answer({ request, params, caller, requestId, entry })
      }
      // A lost answer was processed (and logged with its status) but never reaches the client.
      entry.status = response.status
      entry.requestId = response.headers.get('x-request-id') ?? undefined
      if (fault) entry.fault = fault.fault
      state.record(entry, arrival)
      state.keep()
      if (fault?.fault === 'held') await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }))
      return processed ? Response.error() : response
    }
}
