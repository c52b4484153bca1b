export { TOOLS, getTool } from './catalogue.js'
export type {
  DeferredToolId,
  FileToolId,
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
