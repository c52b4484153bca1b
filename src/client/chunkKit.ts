import { abortError, isToolsError, ToolsError } from './errors.js'
import { jobFailedError } from './interpret.js'
import { loadUploads } from './encode.js'
import { pagePresence } from './presence.js'
import { asRecord } from './record.js'
import { linksIn, malformed, readBody, requestIdOf } from './response.js'
import { MAX_TIMER, sleep } from './retry.js'
import { fingerprint } from './runs/fingerprint.js'

// What the client's chunks (the sender, send.ts; the jobs, jobs.ts) use of its first load, handed
// to them as they load rather than imported: a code-splitting bundler puts a module that both a
// page's first load and a chunk import into a third chunk, one more request with its own overhead,
// on every page. A plain object, not a module namespace, which a bundler would build with a helper
// of its own.
export const chunkKit = {
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

export type ChunkKit = typeof chunkKit
