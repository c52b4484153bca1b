/** A job as a webhook tells of it. */
export interface WebhookJob {
  /** The service's id of the job. */
  jobId: string
  /** Its status, in the service's words. */
  status: string
  /** The job's body as a read of it would give (its result, its links); default `{ jobId, status }`. */
  body?: unknown
}

export interface WebhookOptions {
  /** The endpoint's signing secret (`whsec_…`), or several while one is rotated out. */
  secret: string | readonly string[]
  /**
   * The job a webhook's body tells of, or null for an event that is not about a job. Default: the
   * body, or its `data`, when it has string `jobId` and `status`; the rest is the job's body.
   */
  read?: (body: unknown) => WebhookJob | null | undefined
  /** Largest webhook body read, in bytes; a larger one is 413. Default 256 KiB: a job's status and its result's text. */
  maxBytes?: number
  /**
   * Webhook bodies still arriving after a quarter of a second that one instance reads at once before
   * their signature is checked; more are refused 429. A delivery sent whole (the service's) needs no
   * place, so strangers holding every place keep none of its deliveries out. Default 16.
   */
  maxReading?: number
  /** How long a webhook's body may take to arrive before its signature is checked, in ms; then 408. Default 5 s: the service sends its small body at once. */
  bodyTimeoutMs?: number
}

/** How far a webhook's timestamp may be from now, either way. */
export const WEBHOOK_TOLERANCE_MS = 5 * 60 * 1000

/** Checks a webhook secret list at startup: a TypeError naming the problem, before any webhook arrives; the secrets, as a list. */
export function webhookSecrets(options: WebhookOptions): readonly string[] {
  const secrets = typeof options.secret === 'string' ? [options.secret] : options.secret
  if (!Array.isArray(secrets) || secrets.length === 0) throw new TypeError('createToolsProxy: `webhooks.secret` must be the endpoint’s `whsec_…` secret, or a list of them.')
  return secrets
}

/** A webhook's headers, checked before its body is read. */
export interface WebhookHeaders {
  id: string
  timestamp: string
  /** Its well-formed `v1` signatures, as their base64 (at most eight). */
  signatures: string[]
}

/**
 * The headers of a webhook that could be the service's: an id, a timestamp within five minutes
 * of `now`, and at least one well-formed `v1` signature. The reason when they are not, so a
 * stranger's delivery is refused before a byte of its body is read.
 */
export function webhookHeaders(headers: Headers, now: number): WebhookHeaders | { refused: string } {
  const id = headers.get('webhook-id')
  const timestamp = headers.get('webhook-timestamp')
  const signature = headers.get('webhook-signature')
  if (!id || !timestamp || !signature) return { refused: 'webhook-id, webhook-timestamp and webhook-signature are required' }
  if (id.length > 256) return { refused: 'the webhook-id is too long' }
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now - Number(timestamp) * 1000) > WEBHOOK_TOLERANCE_MS) {
    return { refused: 'the timestamp is not within five minutes of now' }
  }
  const signatures = v1Signatures(signature)
  if (signatures.length === 0) return { refused: 'no v1 signature is well formed' }
  return { id, timestamp, signatures }
}

/** A `v1` signature as Standard Webhooks writes it: the base64 of an HMAC-SHA256 (32 bytes). */
const V1 = /^v1,([A-Za-z0-9+/]{43}=)$/

/** The base64 of a header's well-formed `v1` signatures, at most eight: checked by their form, decoded only to be compared. */
function v1Signatures(header: string): string[] {
  const found: string[] = []
  // A header of thousands of signatures costs no more than its first few.
  for (const part of header.split(' ', 64)) {
    const base64 = V1.exec(part)?.[1]
    if (base64 && found.push(base64) === 8) break
  }
  return found
}

const record = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined

/** The default reading of a webhook: the job is the body, or its `data`, with string `jobId` and `status`. */
export function readWebhookJob(body: unknown): WebhookJob | null {
  for (const candidate of [record(body), record(record(body)?.data)]) {
    if (candidate && typeof candidate.jobId === 'string' && typeof candidate.status === 'string') {
      return { jobId: candidate.jobId, status: candidate.status, body: candidate }
    }
  }
  return null
}
