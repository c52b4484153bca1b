import { getTool } from '../tools/index.js'
import { errorAnswer } from './answers.js'
import type { ProxyContext, UserStreamedJob } from './context.js'
import { toolNotAllowed } from './guards.js'
import type { JobSnapshot } from './jobStatus.js'
import type { Caller } from './guards.js'
import { jobReply } from './rewrite.js'
import { MAX_STREAMED_JOBS } from './events.js'
import { userJobsChannel } from './keys.js'

/**
 * `GET {basePath}/events?job=<tool id>:<handle>&…`: one stream of the page's jobs, each bound to
 * this user like a read; the jobs this user starts while it is open (on any instance) join it.
 */
export async function eventsRoute(context: ProxyContext, request: Request, user: Caller): Promise<Response> {
  const wanted = new URL(request.url).searchParams.getAll('job')
  if (wanted.length === 0 || wanted.length > MAX_STREAMED_JOBS) {
    return errorAnswer(400, 'invalidInput', `Name from 1 to ${MAX_STREAMED_JOBS} jobs, as job=<tool>:<handle>.`)
  }
  const jobs: UserStreamedJob[] = []
  for (const each of wanted) {
    const split = each.lastIndexOf(':')
    const tool = getTool(each.slice(0, split))
    if (!tool || tool.mode !== 'deferred') return errorAnswer(404, 'jobNotFound', 'No such job.')
    if (!user.tools.includes(tool.id)) return toolNotAllowed(tool.id)
    const handle = each.slice(split + 1)
    const jobId = await context.handles.openJob(user.user, tool.id, handle)
    if (!jobId) return errorAnswer(404, 'jobNotFound', 'No such job.')
    jobs.push({ key: { toolPath: tool.path, jobId }, tool: tool.id, handle, user })
  }
  const { streamsOf } = context
  const open = streamsOf.get(user.user) ?? 0
  if (open >= (context.options.streamsPerUser ?? 16)) {
    return errorAnswer(429, 'tooManyStreams', 'Too many event streams are open for this user.', { headers: { 'Retry-After': '5' } })
  }
  // The place is taken before any wait, so streams opened at once count each other.
  streamsOf.set(user.user, open + 1)
  const leave = () => {
    const left = (streamsOf.get(user.user) ?? 1) - 1
    if (left > 0) streamsOf.set(user.user, left)
    else streamsOf.delete(user.user)
  }
  // Listening before the stream answers: a job the page starts once it has the answer is heard.
  const stream: { add?: (job: UserStreamedJob) => void } = {}
  const unsubscribe = await context.store
    .subscribe(userJobsChannel(user.storeId), {
      message: (text) =>
        void userJob(context, user, text).then(
          (job) => job && stream.add?.(job),
          (error: unknown) => context.service.report(`a new job could not join its user's stream: ${String(error)}`),
        ),
    })
    .catch((error: unknown) => {
      leave()
      throw error
    })
  context.telemetry.stream('opened')
  // Counted while open: the page closing it, or its end, gives the place back.
  const { response, add } = context.events.open(jobs, request.headers.get('last-event-id'), request.signal, () => {
    context.telemetry.stream('closed')
    unsubscribe().catch(() => {})
    leave()
  })
  stream.add = add
  return response
}

/** A job the user started, as told on their channel, with its handle for them; undefined for anything else. */
async function userJob(context: ProxyContext, user: Caller, text: string): Promise<UserStreamedJob | undefined> {
  const { tool: id, jobId } = JSON.parse(text) as { tool: string; jobId: string }
  const tool = getTool(id)
  if (!tool || tool.mode !== 'deferred' || !user.tools.includes(tool.id)) return undefined
  return { key: { toolPath: tool.path, jobId }, tool: tool.id, handle: await context.handles.job(user.user, tool.id, jobId), user }
}

/** A job's event for the page: exactly what a read of it answers this user, as JSON text. */
export async function streamAnswer(context: ProxyContext, job: UserStreamedJob, snapshot: JobSnapshot): Promise<{ status: number; json: string }> {
  const reply = await jobReply(context, snapshot, job.user, getTool(job.tool)!, job.key.jobId, job.handle)
  return { status: reply.status, json: reply.json ? reply.body : JSON.stringify(reply.body) }
}
