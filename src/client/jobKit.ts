// What the jobs' chunk (jobs.ts) uses of the client's first load, handed to it as it loads rather
// than imported: a code-splitting bundler puts a module that both a page's first load and a chunk
// import into a third chunk, one more request with its own overhead, on every page.
export { ToolsError } from './errors.js'
export { jobFailedError } from './interpret.js'
export { pagePresence } from './presence.js'
export { asRecord } from './record.js'
export { linksIn, malformed, readBody, requestIdOf } from './response.js'
export { sleep } from './retry.js'
