import { http, HttpResponse, type HttpHandler } from 'msw'
import { TOOLS, type Tool } from '../tools/index.js'
import { answerCall } from './calls.js'
import { serveOn, type Answer } from './exchange.js'
import { errorResponse, jsonResponse } from './http.js'
import { parseCall } from './request.js'
import type { ServiceState } from './state.js'

/** A job's status, to the key that started it. */
const answerPoll =
  (state: ServiceState, tool: Tool): Answer =>
  ({ params, caller, requestId }) => {
    const job = state.jobs.get(String(params.jobId))
    // Another key's job, or another tool's, is as unknown as a job that never existed.
    if (!job || job.key !== caller.key || job.tool !== tool.id) {
      return errorResponse(requestId, 404, 'job_not_found', 'No such job for this key.')
    }
    return jsonResponse(requestId, 200, state.jobBody(job))
  }

/** A file, to the key whose job made it. */
const answerArtifact =
  (state: ServiceState): Answer =>
  ({ caller, requestId, entry }) => {
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

/** Anything else under the base URL. */
const answerUnknown: Answer = ({ request, requestId, entry }) =>
  errorResponse(requestId, 404, 'not_found', `There is no ${request.method} ${entry.path}.`)

/** MSW handlers for every endpoint of the spec, derived from the catalogue, over `state`. */
export function createHandlers(state: ServiceState): HttpHandler[] {
  const base = state.baseUrl
  const serve = serveOn(state)

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
      return [call, http.get(`${base}${tool.path}/jobs/:jobId`, serve('poll', tool, answerPoll(state, tool)))]
    }),
    http.get(`${base}/artifacts/*`, serve('artifact', undefined, answerArtifact(state))),
    // Anything else under the base is answered here, so nothing leaks to a real network.
    http.all(`${base}/*`, serve('other', undefined, answerUnknown)),
  ]
}
