export { createClient, DEFAULT_POLL_INTERVAL, loadArtifacts, loadJobs, loadSender } from './client.js'
export { pollDelay } from './pollDelay.js'
export { loadOnce, whenIdle } from './chunks.js'
export { loadUploads } from './encode.js'
export type { ToolsClientOptions } from './client.js'
export type {
  CallOptions,
  Job,
  JobHandle,
  JobPhase,
  Presence,
  Result,
  ToolDefinition,
  UploadProgress,
  Usage,
  Waiting,
} from './definition.js'
export { abortError, issue, isToolsError, toToolsError, ToolsError, validationError, VALIDATION_MESSAGES } from './errors.js'
export { checkBaseUrl } from './baseUrl.js'
export type { ToolsErrorKind, ToolsErrorOf, ValidationCode, ValidationIssue } from './errors.js'
export { defaultInterpretation, jobFailedError } from './interpret.js'
export type { Interpretation } from './interpret.js'
export type { RetryOptions } from './retry.js'
export type { StandardSchemaV1 } from './standard-schema.js'
export { newIdempotencyKey } from './ids.js'
export { hashText } from './hash.js'
export { sameBytes, webhookKey, webhookSecretBytes, webhookSignature, webhookSignatures, webhookSigned } from './standardWebhooks.js'
export { PROXY_ERROR_CODES, proxyRefusalOf } from './proxy-codes.js'
export type { ProxyErrorCode, ProxyRefusal } from './proxy-codes.js'
export { mediaType } from './media.js'
export { isBusy, isTerminal } from './phase.js'
export type { ArtifactFile } from './client.js'
export * from './runs/index.js'
