import { getTool } from '../../tools/index.js'
import { errorAnswer } from '../answers.js'
import type { ProxyContext, UserStreamedJob } from '../context.js'
import { toolNotAllowed } from '../guards.js'
import type { Caller } from '../guards.js'
import { MAX_STREAMED_JOBS, type RefusedJob } from '../streams/events.js'
import { keys, userJobsChannel } from '../keys.js'
import { pageOf, RECENT_MS, userJob } from '../streams/jobNews.js'
import { thrownText } from '../partnerHooks.js'

/**
 * `GET {basePath}/events?job=<tool id>:<handle>&…`: one stream of the page's jobs, each bound to
 * this user like a read (one they may not read gets the refusal a read would); the jobs its page
 * (`X-Tools-Page`; with none, its user) starts while it is open, on any instance, or started just
 * before, join it.
 */
export async function eventsRoute(context: ProxyContext, request: Request, user: Caller): Promise<Response> {
  const wanted = new URL(request.url).searchParams.getAll('job')
  if (wanted.length === 0 || wanted.length > MAX_STREAMED_JOBS) {
    return errorAnswer(400, 'invalidInput', `Name from 1 to ${MAX_STREAMED_JOBS} jobs, as job=<tool>:<handle>.`)
  }
  const jobs: UserStreamedJob[] = []
  const refused: RefusedJob[] = []
  for (const each of wanted) {
    const split = each.lastIndexOf(':')
    const [id, handle] = [each.slice(0, split), each.slice(split + 1)]
    const tool = getTool(id)
    const readable = tool?.mode === 'deferred' && user.tools.includes(tool.id) ? tool : undefined
    const jobId = readable && (await context.handles.openJob(user.user, readable.id, handle))
    if (readable && jobId) {
      jobs.push({ key: { toolPath: readable.path, jobId }, tool: readable.id, handle, user })
    } else {
      // Told on the stream as a read of it is answered: the page reads it, and meets the same error.
      const refusal = tool?.mode === 'deferred' && !readable ? toolNotAllowed(tool.id) : errorAnswer(404, 'jobNotFound', 'No such job.')
      refused.push({ tool: id, handle, status: refusal.status, json: await refusal.text() })
    }
  }
  const { streams } = context.state
  // The place is taken before any wait, so streams opened at once count each other.
  if (!streams.take(user.user, context.settings.streamsPerUser)) {
    return errorAnswer(429, 'tooManyStreams', 'Too many event streams are open for this user.', { headers: { 'Retry-After': '5' } })
  }
  const leave = () => streams.leave(user.user)
  // Listening before the stream answers: a job the page starts once it has the answer is heard.
  const stream: { add?: (job: UserStreamedJob) => void } = {}
  const page = pageOf(request)
  const join = (text: string, since = 0) =>
    void userJob(context, user, text, since, page).then(
      (job) => job && stream.add?.(job),
      (error: unknown) => context.service.report(`a new job could not join its user's stream: ${thrownText(error)}`),
    )
  let unsubscribe: (() => Promise<void>) | undefined
  let recent: string[]
  try {
    unsubscribe = await context.store.subscribe(userJobsChannel(user.storeId), { message: join })
    // Then the jobs created lately, whose news may have gone before the subscription: one the page
    // started while this stream was on its way is carried all the same.
    recent = (page && (await context.store.list?.(keys.recentJobs(user.storeId, page)))) || []
  } catch (error) {
    unsubscribe?.().catch(() => {})
    leave()
    throw error
  }
  context.telemetry.stream('opened')
  // Counted while open: the page closing it, or its end, gives the place back.
  const { response, add } = context.events.open(jobs, refused, request.headers.get('last-event-id'), request.signal, () => {
    context.telemetry.stream('closed')
    unsubscribe().catch(() => {})
    leave()
  })
  stream.add = add
  for (const text of recent) join(text, Date.now() - RECENT_MS)
  return response
}
