// What the React layer needs of the client that is not public API.
export {
  abortError,
  DEFAULT_POLL_INTERVAL,
  hashText,
  newIdempotencyKey,
  toToolsError,
} from '../client/index.js'
