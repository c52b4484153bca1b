import { defaultInterpretation, isTerminal } from '../tools/index.js'
import { webhookSigned } from '../tools/internal.js'
import { errorAnswer, relayedHeaders } from './answers.js'
import { refuse, smallBody } from './bodies.js'
import type { ProxyContext, WebhookReceiver } from './context.js'
import type { JobSnapshot } from './jobStatus.js'
import { keys } from './keys.js'
import { webhookHeaders, WEBHOOK_TOLERANCE_MS, type WebhookHeaders, type WebhookJob } from './webhooks.js'

/** How long a webhook about a job not yet known is kept, for its creation's answer to find. */
const EARLY_WEBHOOK_TTL = 2 * 60 * 1000

/** `POST {basePath}/webhooks`: the service telling of a job. Verified first; then kept and published like a read. */
export async function webhookRoute(context: ProxyContext, request: Request): Promise<Response> {
  const { webhooks, store, jobStatus } = context
  if (!webhooks) return refuse(request, errorAnswer(404, 'notFound', 'Not found.'), context.timeoutMs)
  // A stranger's delivery costs no read: what its headers show is checked first.
  const headers = webhookHeaders(request.headers, Date.now())
  if ('refused' in headers) return refused(headers.refused)
  const text = await verifiedBody(webhooks, request, headers, context.timeoutMs)
  if (text instanceof Response) return text
  // A webhook sent again (the sender's retry) changes nothing: only the first of an id is read.
  const seen = keys.webhook(headers.id)
  if (!(await store.claim(seen, 2 * WEBHOOK_TOLERANCE_MS))) return new Response(null, { status: 204 })
  try {
    let payload: unknown
    try {
      payload = JSON.parse(text)
    } catch {
      return errorAnswer(400, 'invalidInput', 'The webhook’s body is not JSON.')
    }
    const job = webhooks.read(payload)
    // Not about a job: nothing to do.
    if (!job || typeof job.jobId !== 'string' || typeof job.status !== 'string') return new Response(null, { status: 204 })
    const toolPath = await store.get(keys.job(job.jobId))
    const snapshot = webhookSnapshot(job)
    // A job this proxy has not seen created: its creation's answer may still be on its way (the
    // service can tell before it answers), or it is another app's on the same key. Kept briefly.
    if (!toolPath) await store.set(keys.early(job.jobId), JSON.stringify(snapshot), EARLY_WEBHOOK_TTL)
    else await jobStatus.put({ toolPath, jobId: job.jobId }, snapshot)
    return new Response(null, { status: 204 })
  } catch (error) {
    // Not taken in: the sender's retry must be read.
    await store.release(seen).catch(() => {})
    throw error
  }
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
