import { issue, isToolsError, toToolsError, validationError } from '../errors.js'
import { isTerminal } from '../phase.js'
import { fingerprint } from './fingerprint.js'
import { createJournal, journalStore } from './journal.js'
import type { RunsHost } from './runsHost.js'
import { submit } from './submit.js'

// The first load's side of durable runs' boundary (RunsHost, declared in runsHost.ts): handed to
// the chunk as it loads. The journal and submit are here for that chunk: the hooks' first load has
// them already.
export const runKit: RunsHost = {
  issue,
  isToolsError,
  toToolsError,
  validationError,
  isTerminal,
  fingerprint,
  createJournal,
  journalStore,
  submit,
}
