import { abortError, isToolsError, ToolsError } from './errors.js'
import { jobFailedError } from './interpret.js'
import { loadUploads } from './encode.js'
import { pagePresence } from './presence.js'
import { asRecord } from './record.js'
import { linksIn, malformed, readBody, requestIdOf } from './response.js'
import { MAX_TIMER, sleep } from './retry.js'
import { fingerprint } from './runs/fingerprint.js'
import type { JobsHost } from './jobsHost.js'
import type { SenderHost } from './senderHost.js'

// The first load's side of two lazy boundaries, each declared as a type of its own: the sender's
// chunk gets it as its SenderHost, the jobs' chunk as its JobsHost. Handed over, not imported: a
// code-splitting bundler puts a module that both a page's first load and a chunk import into a
// third chunk, one more request on every page. One plain object for both (not a module namespace,
// which a bundler would build with a helper of its own).
export const chunkKit: SenderHost & JobsHost = {
  ToolsError,
  abortError,
  isToolsError,
  jobFailedError,
  pagePresence,
  asRecord,
  linksIn,
  malformed,
  readBody,
  requestIdOf,
  sleep,
  fingerprint,
  loadUploads,
  MAX_TIMER,
}
