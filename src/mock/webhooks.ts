import { webhookKey, webhookSignature } from '../tools/internal.js'
import { newId } from './http.js'
import { jobStage, type JobClock, type MockJob } from './jobs.js'
import type { MockWebhooks } from './types.js'

/** A delivery the endpoint did not take (no 2xx) is sent again after these waits, as a real sender would. */
const RETRY_MS = [1000, 5000, 30_000]
/** While the jobs' clock is frozen, a job's next change is looked for this often. */
const FROZEN_CHECK_MS = 1000

/**
 * The simulated service's webhooks: each job's status change (to the running status, to its end)
 * is sent to `url`, signed as Standard Webhooks, with the body a read of the job would give
 * (`{ type: 'job.updated', timestamp, data: <job body> }`). Changes come on timers set by the
 * jobs' clock, so fake timers drive them in tests.
 */
export function createWebhookSender(options: MockWebhooks, clock: () => JobClock, bodyOf: (job: MockJob) => Record<string, unknown>) {
  const key = webhookKey(options.secret)
  const send = options.send ?? ((request: Request) => fetch(request))
  const timers = new Set<ReturnType<typeof setTimeout>>()
  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer)
      run()
    }, ms)
    timers.add(timer)
  }

  async function deliver(id: string, payload: string, attempt: number) {
    const timestamp = Math.floor(Date.now() / 1000)
    const request = new Request(options.url, {
      method: 'POST',
      body: payload,
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': await webhookSignature(await key, id, timestamp, payload),
      },
    })
    const taken = await Promise.resolve(send(request)).then(
      (response) => response.ok,
      () => false,
    )
    if (!taken && attempt < RETRY_MS.length) later(RETRY_MS[attempt]!, () => void deliver(id, payload, attempt + 1))
  }

  /** Sends the job's status now if it changed since `sent`, and looks again at its next change. */
  function follow(job: MockJob, sent: string) {
    const now = clock().now()
    const { status, terminal } = jobStage(job, now)
    if (status !== sent) {
      const payload = JSON.stringify({ type: 'job.updated', timestamp: new Date().toISOString(), data: bodyOf(job) })
      void deliver(newId('msg'), payload, 0)
    }
    if (terminal) return
    const elapsed = now - job.createdAt
    const next = elapsed < job.durationMs / 3 ? job.durationMs / 3 : job.durationMs
    later(clock().frozen ? FROZEN_CHECK_MS : Math.max(1, Math.ceil(next - elapsed)), () => follow(job, status))
  }

  return {
    /** Starts sending a new job's changes (its creation's `pending` is in the 202 itself). */
    created: (job: MockJob) => follow(job, 'pending'),
    /** Stops every pending delivery and look. */
    clear() {
      for (const timer of timers) clearTimeout(timer)
      timers.clear()
    },
  }
}
