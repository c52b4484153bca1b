import { createEventStreams, type StreamedJob } from './streams/events.js'
import { createHandles, type Handles } from './tokens/handles.js'
import { createJobStatus, type JobSnapshot, type JobStatus } from './jobs/jobStatus.js'
import type { Caller } from './guards.js'
import type { ToolsProxyOptions } from './options.js'
import { resolveSettings, type ProxySettings } from './settings.js'
import { createProxyState, type ProxyState } from './state.js'
import { createService, type Service } from './service.js'
import { createSigner } from './tokens/signing.js'
import { createTelemetry, type Telemetry } from './telemetry/telemetry.js'
import { memoryStore } from './stores/memoryStore.js'
import { guardStore, type ProxyStore } from './stores/store.js'
import { webhookVerifier, type WebhookVerifier } from './webhooks/webhookVerify.js'

/** A job an event stream carries, with the user it is rewritten for. */
export type UserStreamedJob = StreamedJob & { user: Caller }

/** What every route reads: the settings (read-only), the instance's state, and the parts built from the settings. */
export interface ProxyContext {
  readonly settings: ProxySettings
  /** Counts and caches this instance changes as it answers. */
  readonly state: ProxyState
  readonly store: ProxyStore
  readonly handles: Handles
  readonly service: Service
  /** Spans, metrics and `onEvent`: the router observes each request, routes `note` what they learn. */
  readonly telemetry: Telemetry
  readonly jobStatus: JobStatus
  readonly events: ReturnType<typeof createEventStreams<UserStreamedJob>>
  /** With `webhooks`: checks a delivery's signatures. */
  readonly verifyWebhook: WebhookVerifier | undefined
}

/** How long the store may take over one operation before the proxy answers 503. */
const STORE_TIMEOUT_MS = 1000
/** How long a job's status is kept after its last change. */
const STATUS_TTL_MS = 60 * 60 * 1000
/** With webhooks, how long a watched job may go without one before the proxy reads it itself. */
const WEBHOOK_QUIET_MS = 60_000

/**
 * Resolves the options and builds what the routes share. `onStream` is the event stream's view of a
 * job for its user (the job read's answer, and its present state), given the context once it exists.
 */
export function createContext(
  options: ToolsProxyOptions,
  onStream: {
    answer(context: ProxyContext, job: UserStreamedJob, snapshot: JobSnapshot): Promise<{ status: number; json: string }>
    present(context: ProxyContext, job: UserStreamedJob): Promise<JobSnapshot>
  },
): ProxyContext {
  const settings = resolveSettings(options)
  const { basePath, maxAnswerBytes, timeoutMs } = settings
  const state = createProxyState()
  const store = guardStore(options.store ?? memoryStore(), STORE_TIMEOUT_MS)
  const signer = createSigner(options.secret)
  // Its `report` is the service's, which strikes out the key and the secret.
  const telemetry = createTelemetry({ basePath, service: settings.serviceBase, onEvent: options.onEvent, signer, report: (message) => service.report(message) })
  const service = createService(options, settings.serviceBase, { maxAnswerBytes, timeoutMs }, telemetry)
  const jobStatus = createJobStatus(store, service.readJob, {
    freshMs: 1000,
    // The service's answer, then the store's write of it.
    readMs: timeoutMs + 2 * STORE_TIMEOUT_MS,
    keepMs: STATUS_TTL_MS,
    leaseMs: 10_000,
    webhookQuietMs: settings.webhooks ? WEBHOOK_QUIET_MS : undefined,
    // A delivery refused for want of a place or time may have been the service's: read at the page's pace meanwhile.
    webhooksMissed: () => settings.webhooks !== undefined && state.webhookReading.refusedWithin(WEBHOOK_QUIET_MS),
    report: service.report,
  })
  const context: ProxyContext = {
    settings,
    state,
    store,
    handles: createHandles(signer),
    service,
    telemetry,
    jobStatus,
    events: createEventStreams<UserStreamedJob>(jobStatus, {
      streamMaxMs: settings.streamMaxMs,
      heartbeatMs: settings.heartbeatMs,
      maxQueuedBytes: 2 * maxAnswerBytes,
      answer: (job, snapshot) => onStream.answer(context, job, snapshot),
      present: (job) => onStream.present(context, job),
      report: service.report,
    }),
    verifyWebhook: settings.webhooks && webhookVerifier(settings.webhooks.secrets),
  }
  return context
}
