// The catalogue layer and the public part of the client beneath it (upper layers import from here).
export {
  defaultInterpretation,
  isBusy,
  isTerminal,
  isToolsError,
  jobFailedError,
  ToolsError,
} from '../client/index.js'
// What the server proxy answers its own refusals with, for the browser to tell them apart.
export { PROXY_ERROR_CODES, proxyRefusalOf } from '../client/index.js'
export type { ProxyErrorCode, ProxyRefusal } from '../client/index.js'
export type {
  ArtifactFile,
  CallOptions,
  Interpretation,
  Job,
  JobHandle,
  JobPhase,
  Presence,
  Result,
  RetryOptions,
  ToolsClientOptions,
  ToolsErrorKind,
  ToolsErrorOf,
  UploadProgress,
  Usage,
  ValidationCode,
  ValidationIssue,
  Waiting,
} from '../client/index.js'
export { TOOLS } from './catalogue.js'
export { getTool, inputFields } from './lookup.js'
export type { InputFieldSpec } from './lookup.js'
export type {
  DeferredToolId,
  FileToolId,
  InputField,
  ListingToolId,
  Register,
  Scope,
  SyncToolId,
  Tool,
  ToolData,
  ToolId,
  ToolInput,
  ToolOf,
  ToolResult,
} from './catalogue.js'
export { createToolsClient } from './client.js'
// Durable runs: the journal's shapes, typed by the catalogue.
export type { JournalLimits, JournalProblem, RunPhase, WebStorage } from '../client/index.js'
export type { JournalStore, Run } from './runs.js'
export type { ResumedRun, ToolsClient } from './client.js'
