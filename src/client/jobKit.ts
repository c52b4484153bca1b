import { ToolsError } from './errors.js'
import { jobFailedError } from './interpret.js'
import { pagePresence } from './presence.js'
import { asRecord } from './record.js'
import { linksIn, malformed, readBody, requestIdOf } from './response.js'
import { sleep } from './retry.js'

// What the jobs' chunk (jobs.ts) uses of the client's first load, handed to it as it loads rather
// than imported: a code-splitting bundler puts a module that both a page's first load and a chunk
// import into a third chunk, one more request with its own overhead, on every page. A plain object,
// not a module namespace, which a bundler would build with a helper of its own.
export const jobKit = { ToolsError, jobFailedError, pagePresence, asRecord, linksIn, malformed, readBody, requestIdOf, sleep }

export type JobKit = typeof jobKit
