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
    const job = state.jobs.get(params.jobId ?? '')
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
    return new Response(artifact.bytes, {
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

/** One endpoint: its method (none: any), its path below the base as a pattern, and what it answers. */
interface Route {
  method?: 'GET' | 'POST'
  path: RegExp
  serve: (request: Request, params: Record<string, string>) => Promise<Response>
}

const escaped = (path: string) => path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Every endpoint of the spec, derived from the catalogue, over `state`: a request in, the
 * service's answer out; undefined for a request outside the base URL. Plain Fetch, no MSW, so it
 * runs wherever `Request` and `Response` do (workerd, Node, Bun, Deno, a browser).
 */
export function createRouter(state: ServiceState): (request: Request) => Promise<Response> | undefined {
  const serve = serveOn(state)
  const routes: Route[] = [
    ...TOOLS.flatMap((tool): Route[] => {
      const call: Route = {
        method: 'POST',
        path: new RegExp(`^${escaped(tool.path)}$`),
        serve: serve('call', tool, async ({ request, caller, requestId, entry }) =>
          answerCall(state, {
            tool,
            caller,
            parsed: await parseCall(tool, request),
            idempotencyKey: entry.idempotencyKey,
            requestId,
            entry,
          }),
        ),
      }
      if (tool.mode === 'sync') return [call]
      const poll = { method: 'GET', path: new RegExp(`^${escaped(tool.path)}/jobs/(?<jobId>[^/]+)$`) } as const
      return [call, { ...poll, serve: serve('poll', tool, answerPoll(state, tool)) }]
    }),
    { method: 'GET', path: /^\/artifacts\/.+$/, serve: serve('artifact', undefined, answerArtifact(state)) },
    // Anything else under the base is answered here, so nothing leaks to a real network.
    { path: /^\/.+$/, serve: serve('other', undefined, answerUnknown) },
  ]
  return (request) => {
    const path = state.pathUnderBase(request.url)
    if (path === undefined) return undefined
    for (const route of routes) {
      if (route.method !== undefined && route.method !== request.method) continue
      const match = route.path.exec(path)
      if (match) return route.serve(request, { ...match.groups })
    }
    return undefined
  }
}
