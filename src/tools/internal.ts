// What the React layer needs of the client that is not public API.
export { DEFAULT_POLL_INTERVAL, failedJobError, hashText, newIdempotencyKey } from '../client/index.js'
