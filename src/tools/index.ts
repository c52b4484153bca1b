// The catalogue layer, with the client layer beneath it (upper layers import only from here).
export * from '../client/index.js'
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
