import { issue, isToolsError, toToolsError, validationError } from '../errors.js'
import { newIdempotencyKey } from '../ids.js'
import { isTerminal } from '../phase.js'
import { fingerprint } from './fingerprint.js'
import { createJournal, journalStore } from './journal.js'
import { submit } from './submit.js'

// What the run core (submit, and durable runs' chunk) uses of the client's first load, handed to it
// rather than imported: a code-splitting bundler puts a module that both a page's first load and a
// chunk import into a third chunk, one more request with its own overhead, on every page. The
// journal and submit are here for durable runs' chunk: the hooks' first load has them already.
export const runKit = {
  issue,
  isToolsError,
  toToolsError,
  validationError,
  newIdempotencyKey,
  isTerminal,
  fingerprint,
  createJournal,
  journalStore,
  submit,
}

export type RunKit = typeof runKit
