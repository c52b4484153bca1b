import { defaultInterpretation, isTerminal } from '../../tools/index.js'
import { errorAnswer, relayedHeaders } from '../answers.js'
import { smallBytes } from '../bodies.js'
import type { ProxyContext } from '../context.js'
import type { WebhookSettings } from '../settings.js'
import type { JobSnapshot } from '../jobs/jobStatus.js'
import { keys } from '../keys.js'
import { webhookHeaders, WEBHOOK_TOLERANCE_MS, type WebhookHeaders, type WebhookJob } from '../webhooks/webhooks.js'

/** `POST {basePath}/webhooks`: the service telling of a job. Verified first; then kept and published like a read. */
export async function webhookRoute(context: ProxyContext, request: Request): Promise<Response> {
  const { store, jobStatus } = context
  const { webhooks } = context.settings
  if (!webhooks) return errorAnswer(404, 'notFound', 'Not found.')
  // A stranger's delivery costs no read: what its headers show is checked first.
  const headers = webhookHeaders(request.headers, Date.now())
  if ('refused' in headers) return refused(headers.refused)
  const body = await verifiedBody(context, webhooks, request, headers)
  if (body instanceof Response) return body
  // A webhook sent again (the sender's retry) changes nothing once one of its id was taken in. The
  // mark is written only after the status is: a delivery answered 503 (the store stalled) is taken
  // when it comes again, and taking one twice is harmless (a status never goes back).
  const seen = keys.webhook(headers.id)
  if (await store.get(seen)) return new Response(null, { status: 204 })
  let payload: unknown
  try {
    payload = JSON.parse(new TextDecoder().decode(body))
  } catch {
    return errorAnswer(400, 'invalidInput', 'The webhook’s body is not JSON.')
  }
  const job = webhooks.read(payload)
  // Not about a job: nothing to do.
  if (!job || typeof job.jobId !== 'string' || typeof job.status !== 'string') return new Response(null, { status: 204 })
  await jobStatus.putWebhook(job.jobId, webhookSnapshot(job))
  await store.set(seen, '1', 2 * WEBHOOK_TOLERANCE_MS)
  return new Response(null, { status: 204 })
}

/** A body still arriving after this long takes one of `maxReading` places; one sent whole (the service's) takes none. */
const QUICK_BODY_MS = 250

/**
 * The body, once its signature is checked: each up to `maxBytes`, within `bodyTimeoutMs`; one still
 * arriving after QUICK_BODY_MS only with one of `maxReading` places, so slow senders, however many,
 * hold at most that many bodies and never keep out a delivery sent whole.
 */
async function verifiedBody(context: ProxyContext, webhooks: WebhookSettings, request: Request, headers: WebhookHeaders): Promise<Uint8Array | Response> {
  const reading = context.state.webhookReading
  let placed = false
  const take = () => {
    if (!reading.take(webhooks.maxReading)) {
      return errorAnswer(429, 'rateLimited', 'Too many webhooks are being read; send it again shortly.', { headers: { 'Retry-After': '1' } })
    }
    placed = true
  }
  try {
    const body = await smallBytes(request, webhooks.maxBytes, webhooks.bodyTimeoutMs, { afterMs: QUICK_BODY_MS, take })
    if (body instanceof Response) {
      if (body.status === 408) reading.refused()
      return body
    }
    return (await context.verifyWebhook!(headers.signatures, headers.id, headers.timestamp, body)) ? body : refused('no signature matches')
  } finally {
    if (placed) reading.giveBack()
  }
}

const refused = (reason: string) => errorAnswer(401, 'webhookRefused', `The webhook was refused: ${reason}.`)

/** A job's status as a webhook tells it, kept like a read's answer. */
const webhookSnapshot = (job: WebhookJob): JobSnapshot => ({
  status: 200,
  body: JSON.stringify(job.body ?? { jobId: job.jobId, status: job.status }),
  headers: relayedHeaders(new Headers()),
  readAt: Date.now(),
  terminal: isTerminal(defaultInterpretation.phase(job.status)),
})
