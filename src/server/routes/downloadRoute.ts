import type { ToolId } from '../../tools/index.js'
import { downloadAnswer, errorAnswer } from '../answers.js'
import type { ProxyContext } from '../context.js'
import { toolNotAllowed } from '../guards.js'
import type { Caller } from '../guards.js'
import { replyResponse, rewriteFor } from '../rewrite.js'
import { failureOf, followDownload, upstreamTimer } from '../upstream.js'

/** `GET {basePath}/artifacts/<token>/<name>`: a file signed for this user, streamed from the service (or its CDN, without the key). */
export async function downloadRoute(context: ProxyContext, request: Request, user: Caller, token: string): Promise<Response> {
  const { service } = context
  const opened = await context.handles.openArtifact(user.user, token, Date.now())
  if (!opened?.path.startsWith('/artifacts/')) return errorAnswer(404, 'artifactNotFound', 'No such file, or its link has expired.')
  if (!user.tools.includes(opened.tool as ToolId)) return toolNotAllowed(opened.tool)
  const timer = upstreamTimer(context.settings.timeoutMs, request.signal)
  timer.start()
  try {
    const first = await service.send(opened.path, { signal: timer.signal }, request)
    // Headers are in: the file itself may take as long as it takes to stream.
    timer.stop()
    const upstream = await followDownload(first, service.base + opened.path, context.settings.downloadOrigins, service.fetch, request.signal)
    if (upstream.ok) return downloadAnswer(upstream, opened.path, service.scrub)
    return replyResponse(await rewriteFor(context, await service.answerOf(upstream), { user, written: new Set() }))
  } catch (error) {
    return service.failed('GET /artifacts', failureOf(error, timer), request)
  } finally {
    timer.stop()
  }
}
