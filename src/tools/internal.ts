// What the React layer, the proxy and the simulated service need of the client that is not public API.
export {
  abortError,
  DEFAULT_POLL_INTERVAL,
  hashText,
  newIdempotencyKey,
  pollDelay,
  toToolsError,
  webhookKey,
  webhookSignature,
  webhookSigned,
} from '../client/index.js'
