import { delay, http, HttpResponse, type HttpHandler } from 'msw'
import { TOOLS, type Tool } from '../tools/index.js'
import { answerCall } from './calls.js'
import { faultResponse } from './faults.js'
import { errorResponse, jsonResponse, newId } from './http.js'
import { mediaTypeOf, parseCall } from './request.js'
import type { Caller, ServiceState } from './state.js'
import type { MockLogEntry, MockRequestKind } from './types.js'

/** One request as an answer sees it, after the key check. */
interface Exchange {
  request: Request
  params: Record<string, string | readonly string[] | undefined>
  caller: Caller
  requestId: string
  entry: MockLogEntry
}

type Answer = (exchange: Exchange) => Response | Promise<Response>

function bearerKey(request: Request): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')
  return match?.[1]
}

/** MSW handlers for every endpoint of the spec, derived from the catalogue, over `state`. */
export function createHandlers(state: ServiceState): HttpHandler[] {
  const base = state.baseUrl

  /** Wraps an answer in what every request gets: latency, injected faults, the key check and a log entry. */
  const serve =
    (kind: MockRequestKind, tool: Tool | undefined, answer: Answer) =>
    async ({ request, params }: { request: Request; params: Exchange['params'] }): Promise<Response> => {
      const at = Date.now()
      if (state.latency > 0) await delay(state.latency)
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
      const fault = state.faults.take({ tool: tool?.id, method: request.method, kind })
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
      state.log.push(entry)
      state.keep()
      if (fault?.fault === 'held') await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }))
      return processed ? HttpResponse.error() : response
    }

  const answerPoll =
    (tool: Tool): Answer =>
    ({ params, caller, requestId }) => {
      const job = state.jobs.get(String(params.jobId))
      // Another key's job, or another tool's, is as unknown as a job that never existed.
      if (!job || job.key !== caller.key || job.tool !== tool.id) {
        return errorResponse(requestId, 404, 'job_not_found', 'No such job for this key.')
      }
      return jsonResponse(requestId, 200, state.jobBody(job))
    }

  const answerArtifact: Answer = ({ caller, requestId, entry }) => {
    const id = entry.path.split('/')[2] ?? ''
    const artifact = state.artifacts.get(id)
    if (!artifact || artifact.key !== caller.key) {
      return errorResponse(requestId, 404, 'artifact_not_found', 'No such file for this key.')
    }
    return new HttpResponse(artifact.bytes, {
      headers: {
        'Content-Type': artifact.contentType,
        'Content-Length': String(artifact.bytes.byteLength),
        'Content-Disposition': `inline; filename="${artifact.filename}"`,
        'Cache-Control': 'private, no-store',
        'X-Request-Id': requestId,
      },
    })
  }

  const answerUnknown: Answer = ({ request, requestId, entry }) =>
    errorResponse(requestId, 404, 'not_found', `There is no ${request.method} ${entry.path}.`)

  return [
    ...TOOLS.flatMap((tool) => {
      const call = http.post(
        base + tool.path,
        serve('call', tool, async ({ request, caller, requestId, entry }) =>
          answerCall(state, {
            tool,
            caller,
            parsed: await parseCall(tool, request),
            idempotencyKey: entry.idempotencyKey,
            requestId,
            entry,
          }),
        ),
      )
      if (tool.mode === 'sync') return [call]
      return [call, http.get(`${base}${tool.path}/jobs/:jobId`, serve('poll', tool, answerPoll(tool)))]
    }),
    http.get(`${base}/artifacts/*`, serve('artifact', undefined, answerArtifact)),
    // Anything else under the base is answered here, so nothing leaks to a real network.
    http.all(`${base}/*`, serve('other', undefined, answerUnknown)),
  ]
}
