import { defaultInterpretation, isTerminal } from '../tools/index.js'
import { webhookSigned } from '../tools/internal.js'
import { errorAnswer, relayedHeaders } from './answers.js'
import { refuse, smallBody } from './bodies.js'
import type { ProxyContext, WebhookReceiver } from './context.js'
import type { JobSnapshot } from './jobStatus.js'
import { keys } from './keys.js'
import { webhookHeaders, WEBHOOK_TOLERANCE_MS, type WebhookHeaders, type WebhookJob } from './webhooks.js'

/** `POST {basePath}/webhooks`: the service telling of a job. Verified first; then kept and published like a read. */
export async function webhookRoute(context: ProxyContext, request: Request): Promise<Response> {
  const { webhooks, store, jobStatus } = context
  if (!webhooks) return refuse(request, errorAnswer(404, 'notFound', 'Not found.'), context.timeoutMs)
  // A stranger's delivery costs no read: what its headers show is checked first.
  const headers = webhookHeaders(request.headers, Date.now())
  if ('refused' in headers) return refused(headers.refused)
  const text = await verifiedBody(webhooks, request, headers, context.timeoutMs)
  if (text instanceof Response) return text
  // A webhook sent again (the sender's retry) changes nothing once one of its id was taken in. The
  // mark is written only after the status is: a delivery answered 503 (the store stalled) is taken
  // when it comes again, and taking one twice is harmless (a status never goes back).
  const seen = keys.webhook(headers.id)
  if (await store.get(seen)) return new Response(null, { status: 204 })
  let payload: unknown
  try {
    payload = JSON.parse(text)
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

/** The body, once its signature is checked: at most `maxReading` read at once, each up to `maxBytes`. */
async function verifiedBody(webhooks: WebhookReceiver, request: Request, headers: WebhookHeaders, timeoutMs: number): Promise<string | Response> {
  if (webhooks.reading >= webhooks.maxReading) {
    return errorAnswer(429, 'rateLimited', 'Too many webhooks are being read; send it again shortly.', { headers: { 'Retry-After': '1' } })
  }
  webhooks.reading++
  try {
    const text = await smallBody(request, webhooks.maxBytes, timeoutMs)
    if (text instanceof Response) return text
    const signed = await webhookSigned(await Promise.all(webhooks.keys), headers.signature, headers.id, headers.timestamp, text)
    return signed ? text : refused('no signature matches')
  } finally {
    webhooks.reading--
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
