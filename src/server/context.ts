import { FILE_MAKING_TOOLS } from '../tools/internal.js'
import { createEventStreams, type StreamedJob } from './streams/events.js'
import { createHandles, type Handles } from './tokens/handles.js'
import { createJobStatus, type JobSnapshot, type JobStatus } from './jobs/jobStatus.js'
import type { Caller } from './guards.js'
import { checkOptions, DEFAULT_STREAM_RATE, type ProxyLimits, type ProxyRate, type ToolsProxyOptions } from './options.js'
import { createService, type Service } from './service.js'
import { createSigner } from './tokens/signing.js'
import { createTelemetry, type Telemetry } from './telemetry/telemetry.js'
import { memoryStore } from './stores/memoryStore.js'
import { guardStore, type ProxyStore } from './stores/store.js'
import { readWebhookJob, webhookSecrets, type WebhookOptions } from './webhooks/webhooks.js'
import { webhookVerifier, type WebhookVerifier } from './webhooks/webhookVerify.js'

/** A job an event stream carries, with the user it is rewritten for. */
export type UserStreamedJob = StreamedJob & { user: Caller }

export interface WebhookReceiver {
  verify: WebhookVerifier
  read: NonNullable<WebhookOptions['read']>
  maxBytes: number
  maxReading: number
  bodyTimeoutMs: number
  /** Unverified bodies being read now that took a place (those still arriving after a moment). */
  reading: number
  /** When a delivery that could have been the service's was last refused unread (no place, or too slow): watchers then read jobs sooner. */
  refusedAt: number
}

/** What every route reads: the options resolved once, and the parts built from them. */
export interface ProxyContext {
  readonly options: ToolsProxyOptions
  /** `basePath` without a trailing slash. */
  readonly basePath: string
  readonly limits: ProxyLimits | undefined
  readonly rate: ProxyRate
  /** Event streams a user may open, per window. */
  readonly streamRate: ProxyRate
  readonly maxUploadBytes: number
  readonly maxAnswerBytes: number
  /** A JSON call's body, at most. */
  readonly jsonCap: number
  readonly timeoutMs: number
  readonly artifactTtl: number
  /** The tools whose answers' file links are signed. */
  readonly fileTools: ReadonlySet<string>
  readonly downloadOrigins: readonly string[]
  readonly allowedOrigins: readonly string[]
  readonly store: ProxyStore
  readonly handles: Handles
  readonly service: Service
  /** Spans, metrics and `onEvent`: the router observes each request, routes `note` what they learn. */
  readonly telemetry: Telemetry
  readonly jobStatus: JobStatus
  readonly events: ReturnType<typeof createEventStreams<UserStreamedJob>>
  /** With `webhooks`: the keys their signatures are checked with, how a body names its job, its caps, the bodies being read. */
  readonly webhooks: WebhookReceiver | undefined
  /** Links signed lately, by user, tool, file and expiry: the same link is not signed twice. */
  readonly signedLinks: Map<string, string>
  /** Event streams open here, per user. */
  readonly streamsOf: Map<string, number>
}

const DEFAULT_MAX_UPLOAD = 256 * 1024 * 1024
const DEFAULT_MAX_ANSWER = 4 * 1024 * 1024
const DEFAULT_TIMEOUT = 30_000
const DEFAULT_RATE: ProxyRate = { requests: 20, perMs: 1000 }
const DEFAULT_ARTIFACT_TTL = 60 * 60 * 1000
/** A JSON tool call's body, at most: options, not files. */
const MAX_JSON_REQUEST = 1024 * 1024
/** How long the store may take over one operation before the proxy answers 503. */
const STORE_LIMIT = 1000
/** A webhook's body, at most: a job's status and its result's text, many times over. */
const DEFAULT_WEBHOOK_BYTES = 256 * 1024
/** How long a webhook's body may take to arrive before its signature is checked: the service sends its small body at once. */
const DEFAULT_WEBHOOK_BODY_MS = 5000
/** How long a job's status is kept after its last change. */
const STATUS_TTL = 60 * 60 * 1000
/** With webhooks, how long a watched job may go without one before the proxy reads it itself. */
const WEBHOOK_QUIET = 60_000

/**
 * Checks the options and builds what the routes share. `onStream` is the event stream's view of a
 * job for its user (the job read's answer, and its present state), given the context once it exists.
 */
export function createContext(
  options: ToolsProxyOptions,
  onStream: {
    answer(context: ProxyContext, job: UserStreamedJob, snapshot: JobSnapshot): Promise<{ status: number; json: string }>
    present(context: ProxyContext, job: UserStreamedJob): Promise<JobSnapshot>
  },
): ProxyContext {
  const base = checkOptions(options)
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT
  const store = guardStore(options.store ?? memoryStore(), STORE_LIMIT)
  const basePath = options.basePath.replace(/\/+$/, '')
  const signer = createSigner(options.secret)
  // Its `report` is the service's, which strikes out the key and the secret.
  const telemetry = createTelemetry({ basePath, service: base, onEvent: options.onEvent, signer, report: (message) => service.report(message) })
  const service = createService(options, base, { maxAnswerBytes, timeoutMs }, telemetry)
  const jobStatus = createJobStatus(store, service.readJob, {
    freshMs: 1000,
    // The service's answer, then the store's write of it.
    readMs: timeoutMs + 2 * STORE_LIMIT,
    keepMs: STATUS_TTL,
    leaseMs: 10_000,
    webhookQuietMs: options.webhooks ? WEBHOOK_QUIET : undefined,
    // A delivery refused for want of a place or time may have been the service's: read at the page's pace meanwhile.
    webhooksMissed: () => context.webhooks !== undefined && Date.now() - context.webhooks.refusedAt < WEBHOOK_QUIET,
    report: service.report,
  })
  const context: ProxyContext = {
    options,
    basePath,
    limits: options.limits,
    rate: options.rate ?? DEFAULT_RATE,
    streamRate: options.streamRate ?? DEFAULT_STREAM_RATE,
    maxUploadBytes,
    maxAnswerBytes,
    jsonCap: Math.min(maxUploadBytes, MAX_JSON_REQUEST),
    timeoutMs,
    artifactTtl: options.artifactTtlMs ?? DEFAULT_ARTIFACT_TTL,
    fileTools: new Set(options.fileTools ?? FILE_MAKING_TOOLS),
    downloadOrigins: options.downloadOrigins ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    store,
    handles: createHandles(signer),
    service,
    telemetry,
    jobStatus,
    events: createEventStreams<UserStreamedJob>(jobStatus, {
      streamMaxMs: options.streamMaxMs ?? 5 * 60 * 1000,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      maxQueuedBytes: 2 * maxAnswerBytes,
      answer: (job, snapshot) => onStream.answer(context, job, snapshot),
      present: (job) => onStream.present(context, job),
      report: service.report,
    }),
    webhooks: options.webhooks && {
      verify: webhookVerifier(webhookSecrets(options.webhooks)),
      read: options.webhooks.read ?? readWebhookJob,
      maxBytes: options.webhooks.maxBytes ?? DEFAULT_WEBHOOK_BYTES,
      maxReading: options.webhooks.maxReading ?? 16,
      bodyTimeoutMs: options.webhooks.bodyTimeoutMs ?? DEFAULT_WEBHOOK_BODY_MS,
      reading: 0,
      refusedAt: 0,
    },
    signedLinks: new Map(),
    streamsOf: new Map(),
  }
  return context
}
