import type { Tool } from '../../tools/index.js'
import { errorAnswer } from '../answers.js'
import type { ProxyContext } from '../context.js'
import type { JobSnapshot } from '../jobs/jobStatus.js'
import type { Caller } from '../guards.js'
import { keys } from '../keys.js'
import { jobReply, linkHolds, replyResponse } from '../rewrite.js'
import { readFailure } from '../jobAnswers.js'

/** `GET {basePath}/<tool>/jobs/<handle>`: a job's status, as kept or read once for every reader, rewritten for this user. */
export async function jobRoute(context: ProxyContext, request: Request, user: Caller, tool: Tool, handle: string): Promise<Response> {
  const jobId = await context.handles.openJob(user.user, tool.id, handle)
  if (!jobId) return errorAnswer(404, 'jobNotFound', 'No such job.')
  let snapshot: JobSnapshot
  let written: string | undefined
  let added: unknown[] | undefined
  // Its new links' holds go with the write of the service's answer, when the read reaches it.
  const holds = linkHolds(context, user, tool, jobId, handle)
  try {
    // What the job's request carried comes in the same trip to the store as its status.
    ;({ snapshot, also: written, added } = await context.jobStatus.read({ toolPath: tool.path, jobId }, keys.written(jobId), holds.operations))
  } catch (error) {
    return readFailure(context, tool.path, error, request)
  }
  context.telemetry.note(request, { upstreamStatus: snapshot.status })
  return replyResponse(await jobReply(context, snapshot, user, tool, jobId, handle, written ?? null, holds.held(added)))
}
