// What the React layer, the proxy and the simulated service need of the client that is not public API.
export {
  abortError,
  DEFAULT_POLL_INTERVAL,
  hashText,
  mediaType,
  newIdempotencyKey,
  pollDelay,
  toToolsError,
  webhookKey,
  webhookSecretBytes,
  webhookSignature,
  webhookSignatures,
  webhookSigned,
} from '../client/index.js'
export type { ToolDefinition } from '../client/index.js'
export { FILE_MAKING_TOOLS } from './catalogue.js'
