// A new job's news: told to its user's open streams, and kept a while for the stream its page is opening.
import { getTool } from '../../tools/index.js'
import type { ProxyContext, UserStreamedJob } from '../context.js'
import type { Caller } from '../guards.js'
import { keys, userJobsChannel } from '../keys.js'
import type { ProxyStore, StoreOperation } from '../stores/store.js'
import type { JobSnapshot } from '../jobs/jobSnapshot.js'
import { MAX_STREAMED_JOBS } from './events.js'

/** How long a new job stays in its page's recent list: far longer than a stream takes to open. */
export const RECENT_MS = 30_000

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
 * not know them). It carries the job's `first` snapshot: the job's own keys go in the same trip,
 * and a stream that hears the news before they land starts from it.
 */
export function newJobNews(store: ProxyStore, user: Caller, tool: string, jobId: string, page: string | undefined, first: JobSnapshot): StoreOperation[] {
  const news = JSON.stringify({ tool, jobId, at: Date.now(), page, first })
  const told: StoreOperation = { op: 'publish', channel: userJobsChannel(user.storeId), message: news }
  if (!store.push || !page) return [told]
  return [told, { op: 'push', key: keys.recentJobs(user.storeId, page), value: news, max: MAX_STREAMED_JOBS, ttlMs: RECENT_MS }]
}

/**
 * A job the user started (created after `since`, when given; on `page`, when the stream names its
 * page: another tab's jobs would only take its places), as told on their channel, with its handle
 * for them; undefined for anything else.
 */
export async function userJob(context: ProxyContext, user: Caller, text: string, since: number, page: string | undefined): Promise<UserStreamedJob | undefined> {
  const { tool: id, jobId, at, page: from, first } = JSON.parse(text) as { tool: string; jobId: string; at: number; page?: string; first?: JobSnapshot }
  const tool = getTool(id)
  if ((since && !(at > since)) || (page && from !== page)) return undefined
  if (!tool || tool.mode !== 'deferred' || !user.tools.includes(tool.id)) return undefined
  return { key: { toolPath: tool.path, jobId }, tool: tool.id, handle: await context.handles.job(user.user, tool.id, jobId), user, first }
}

