import { getTool } from '../../tools/index.js'
import { errorAnswer } from '../answers.js'
import type { ProxyContext, UserStreamedJob } from '../context.js'
import { overRate, rateLimited, toolNotAllowed } from '../guards.js'
import type { JobSnapshot } from '../jobs/jobStatus.js'
import type { Caller } from '../guards.js'
import { jobReply } from '../rewrite.js'
import { readFailure } from './jobRoute.js'
import { MAX_STREAMED_JOBS, type RefusedJob } from '../streams/events.js'
import { keys, userJobsChannel } from '../keys.js'
import type { ProxyStore, StoreOperation } from '../stores/store.js'
import { thrownText } from '../partnerHooks.js'

/**
 * `GET {basePath}/events?job=<tool id>:<handle>&…`: one stream of the page's jobs, each bound to
 * this user like a read (one they may not read gets the refusal a read would); the jobs its page
 * (`X-Tools-Page`; with none, its user) starts while it is open, on any instance, or started just
 * before, join it.
 */
export async function eventsRoute(context: ProxyContext, request: Request, user: Caller): Promise<Response> {
  // Opening a stream has its own rate, counted first: a refused open costs the store that count alone.
  const wait = await overRate(context, user, 'streamRate')
  if (wait !== undefined) return rateLimited(wait)
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

/** How long a new job stays in its page's recent list: far longer than a stream takes to open. */
const RECENT_MS = 30_000

/**
 * The page a request comes from, as the kit's client names it (`X-Tools-Page`, once the proxy has
 * named it a stream): a random id, so a stream opening takes the jobs its own page started
 * meanwhile, not every tab's. Anything else is no page.
 */
export function pageOf(request: Request): string | undefined {
  const page = request.headers.get('x-tools-page')
  return page && /^[\w-]{1,64}$/.test(page) ? page : undefined
}

/**
 * A new job's news, in its creation's trip to the store: told to the user's open streams, and kept
 * a while for its page's stream opening now (where the store keeps lists: a store's own batch may
 * not know them).
 */
export function newJobNews(store: ProxyStore, user: Caller, tool: string, jobId: string, page: string | undefined): StoreOperation[] {
  const news = JSON.stringify({ tool, jobId, at: Date.now(), page })
  const told: StoreOperation = { op: 'publish', channel: userJobsChannel(user.storeId), message: news }
  if (!store.push || !page) return [told]
  return [told, { op: 'push', key: keys.recentJobs(user.storeId, page), value: news, max: MAX_STREAMED_JOBS, ttlMs: RECENT_MS }]
}

/**
 * A job the user started (created after `since`, when given; on `page`, when the stream names its
 * page: another tab's jobs would only take its places), as told on their channel, with its handle
 * for them; undefined for anything else.
 */
async function userJob(context: ProxyContext, user: Caller, text: string, since: number, page: string | undefined): Promise<UserStreamedJob | undefined> {
  const { tool: id, jobId, at, page: from } = JSON.parse(text) as { tool: string; jobId: string; at: number; page?: string }
  const tool = getTool(id)
  if ((since && !(at > since)) || (page && from !== page)) return undefined
  if (!tool || tool.mode !== 'deferred' || !user.tools.includes(tool.id)) return undefined
  return { key: { toolPath: tool.path, jobId }, tool: tool.id, handle: await context.handles.job(user.user, tool.id, jobId), user }
}

/** How a stream sees its jobs, as a job read does: `answer`, a job's event for the page (exactly what a read answers this user, as JSON text); `present`, a job's state when the store holds none. */
export const jobOnStream = {
  async answer(context: ProxyContext, job: UserStreamedJob, snapshot: JobSnapshot): Promise<{ status: number; json: string }> {
    const reply = await jobReply(context, snapshot, job.user, getTool(job.tool)!, job.key.jobId, job.handle)
    return { status: reply.status, json: reply.json ? reply.body : JSON.stringify(reply.body) }
  },

  /** Read once for every reader (jobStatus); a read that failed is told as the failure a read answers, and the page reads it itself. */
  async present(context: ProxyContext, job: UserStreamedJob): Promise<JobSnapshot> {
    try {
      return (await context.jobStatus.read(job.key)).snapshot
    } catch (error) {
      // The stream waits on this read, not a request of the page's: nobody cancels it.
      const failure = readFailure(context, job.key.toolPath, error, { signal: new AbortController().signal })
      return { status: failure.status, body: await failure.text(), headers: {}, readAt: 0, terminal: false }
    }
  },
}
