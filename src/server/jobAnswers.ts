// A job as its user is answered, wherever it is asked for: a read, or an event stream.
import { getTool } from '../tools/index.js'
import type { ProxyContext, UserStreamedJob } from './context.js'
import type { JobSnapshot } from './jobs/jobStatus.js'
import { jobReply } from './rewrite.js'
import { StoreUnavailable } from './stores/store.js'
import { failureOf } from './upstream.js'

/** A job read the service failed, answered as the proxy answers that failure; a store's failure is the router's to answer. */
export function readFailure(context: ProxyContext, toolPath: string, error: unknown, request: Pick<Request, 'signal'>): Response {
  if (error instanceof StoreUnavailable) throw error
  return context.service.failed(`GET ${toolPath}/jobs`, failureOf(error, { timedOut: false, signal: request.signal }), request)
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
