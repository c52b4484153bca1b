// The catalogue layer and the public part of the client beneath it (upper layers import from here).
export {
  defaultInterpretation,
  isBusy,
  isTerminal,
  isToolsError,
  jobFailedError,
  mediaType,
  ToolsError,
  VALIDATION_MESSAGES,
} from '../client/index.js'
export type {
  ArtifactFile,
  CallOptions,
  Interpretation,
  Job,
  JobHandle,
  JobPhase,
  Result,
  RetryOptions,
  StandardSchemaV1,
  ToolDefinition,
  ToolsClientOptions,
  ToolsErrorKind,
  UploadProgress,
  ValidationCode,
  ValidationIssue,
} from '../client/index.js'
export { getTool, inputFields, TOOLS } from './catalogue.js'
export type {
  DeferredToolId,
  FileToolId,
  InputField,
  InputFieldSpec,
  ListingToolId,
  Scope,
  SyncToolId,
  Tool,
  ToolId,
  ToolInput,
  ToolOf,
  ToolResult,
} from './catalogue.js'
export { createToolsClient } from './client.js'
export type { ToolsClient } from './client.js'
