// What the React layer, the proxy and the simulated service need of the client that is not public API.
export {
  abortError,
  checkBaseUrl,
  DEFAULT_POLL_INTERVAL,
  hashText,
  loadArtifacts,
  loadJobs,
  loadSender,
  loadUploads,
  mediaType,
  newIdempotencyKey,
  pollDelay,
  sameBytes,
  toToolsError,
  webhookKey,
  webhookSecretBytes,
  webhookSignature,
  webhookSignatures,
  webhookSigned,
  whenIdle,
} from '../client/index.js'
export type { ToolDefinition } from '../client/index.js'
// The run core beneath the hooks.
export {
  belongsTo,
  createJournal,
  defaultStore,
  fingerprint,
  journalStore,
  memoryJournal,
  personOf,
  RunObserver,
  runView,
  shownRun,
  tagOf,
} from '../client/index.js'
export type { CallState, Intent, JobState, RunCallOptions, RunObserverOptions, RunRoutes, RunSnapshot } from '../client/index.js'
export type { Journal } from './runs.js'
export { FILE_MAKING_TOOLS, TOOL_TEXTS } from './catalogue.js'
export type { ToolText } from './catalogue.js'
// The input checks' chunk: loaded at the first validation, or on idle by the provider.
export { loadChecks } from './lazyInput.js'
