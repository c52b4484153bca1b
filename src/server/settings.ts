// The proxy's options, checked and with every default resolved once: what the routes and parts read.
import { FILE_MAKING_TOOLS } from '../tools/internal.js'
import { checkOptions, type ProxyLimits, type ProxyRate, type ProxyUser, type ToolsProxyOptions } from './options.js'
import { readWebhookJob, webhookSecrets, type WebhookOptions } from './webhooks/webhooks.js'

/** The resolved options: read-only, every default applied. */
export interface ProxySettings {
  /** The service's base address without a trailing slash. */
  readonly serviceBase: string
  /** `basePath` without a trailing slash. */
  readonly basePath: string
  readonly authorize: (request: Request) => ProxyUser | null | undefined | Promise<ProxyUser | null | undefined>
  readonly limits: ProxyLimits | undefined
  readonly rate: ProxyRate
  /** Event streams a user may open, per window. */
  readonly streamRate: ProxyRate
  /** Event streams a user may hold open on this instance. */
  readonly streamsPerUser: number
  readonly streamMaxMs: number
  readonly heartbeatMs: number
  readonly maxUploadBytes: number
  readonly maxAnswerBytes: number
  /** A JSON call's body, at most. */
  readonly maxJsonBytes: number
  readonly timeoutMs: number
  readonly artifactTtlMs: number
  /** The tools whose answers' file links are signed. */
  readonly fileTools: ReadonlySet<string>
  readonly downloadOrigins: readonly string[]
  readonly allowedOrigins: readonly string[]
  /** With `webhooks`: the keys their signatures are checked with, how a body names its job, its caps. */
  readonly webhooks: WebhookSettings | undefined
}

export interface WebhookSettings {
  readonly secrets: readonly string[]
  readonly read: NonNullable<WebhookOptions['read']>
  readonly maxBytes: number
  readonly maxReading: number
  readonly bodyTimeoutMs: number
}

/** `streamRate` unless set: a page opens one stream for its life. */
export const DEFAULT_STREAM_RATE: ProxyRate = { requests: 30, perMs: 10_000 }
const DEFAULT_RATE: ProxyRate = { requests: 20, perMs: 1000 }
const DEFAULT_MAX_UPLOAD_BYTES = 256 * 1024 * 1024
const DEFAULT_MAX_ANSWER_BYTES = 4 * 1024 * 1024
const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_ARTIFACT_TTL_MS = 60 * 60 * 1000
/** A JSON tool call's body, at most: options, not files. */
const MAX_JSON_BYTES = 1024 * 1024
/** A webhook's body, at most: a job's status and its result's text, many times over. */
const DEFAULT_WEBHOOK_BYTES = 256 * 1024
/** How long a webhook's body may take to arrive before its signature is checked: the service sends its small body at once. */
const DEFAULT_WEBHOOK_BODY_MS = 5000

/** Checks the options (a TypeError naming what is wrong) and resolves every default. */
export function resolveSettings(options: ToolsProxyOptions): ProxySettings {
  const serviceBase = checkOptions(options)
  const maxUploadBytes = options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES
  const { webhooks } = options
  return {
    serviceBase,
    basePath: options.basePath.replace(/\/+$/, ''),
    authorize: options.authorize,
    limits: options.limits,
    rate: options.rate ?? DEFAULT_RATE,
    streamRate: options.streamRate ?? DEFAULT_STREAM_RATE,
    streamsPerUser: options.streamsPerUser ?? 16,
    streamMaxMs: options.streamMaxMs ?? 5 * 60 * 1000,
    heartbeatMs: options.heartbeatMs ?? 15_000,
    maxUploadBytes,
    maxAnswerBytes: options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES,
    maxJsonBytes: Math.min(maxUploadBytes, MAX_JSON_BYTES),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    artifactTtlMs: options.artifactTtlMs ?? DEFAULT_ARTIFACT_TTL_MS,
    fileTools: new Set(options.fileTools ?? FILE_MAKING_TOOLS),
    downloadOrigins: options.downloadOrigins ?? [],
    allowedOrigins: options.allowedOrigins ?? [],
    webhooks: webhooks && {
      secrets: webhookSecrets(webhooks),
      read: webhooks.read ?? readWebhookJob,
      maxBytes: webhooks.maxBytes ?? DEFAULT_WEBHOOK_BYTES,
      maxReading: webhooks.maxReading ?? 16,
      bodyTimeoutMs: webhooks.bodyTimeoutMs ?? DEFAULT_WEBHOOK_BODY_MS,
    },
  }
}
