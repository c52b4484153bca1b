import type { Job, Result } from '../definition.js'
import type { ToolsError, ValidationIssue } from '../errors.js'
import type { Journal, JournalProblem, JournalStore, Run, WebStorage } from './journal.js'
import type { Intent, SubmitContext } from './submit.js'

/**
 * What durable runs' chunk (durable.ts, loaded only by a client given a journal) receives of the
 * first load, rather than importing it: a code-splitting bundler puts a module that both a page's
 * first load and a chunk import into a third chunk, one more request on every page. Declared here,
 * for this boundary alone; the first load's runKit implements it. Measured (`npm run size`): the
 * chunk importing these instead adds 0.5–0.8 kB gz to each import's first load with esbuild and
 * Vite (0.1 kB less with Next.js).
 */
export interface RunsHost {
  issue(field: string, code: string): ValidationIssue
  isToolsError(value: unknown): value is ToolsError
  toToolsError(error: unknown, tool?: string): ToolsError
  validationError(issues: ValidationIssue[], tool?: string): ToolsError
  isTerminal(phase: string | undefined): phase is 'succeeded' | 'failed'
  /** Who a key is, without the key: whose runs are whose. */
  fingerprint(baseUrl: string, key: string | null | undefined, user?: string): string
  createJournal<T extends string = string>(store: JournalStore<T> | null, onError?: (problem: JournalProblem) => void): Journal<T>
  journalStore<T extends string = string>(store: JournalStore<T> | WebStorage): JournalStore<T>
  /** Sends one intent, journaled first (the first load has it for its hooks already). */
  submit(intent: Intent, context: SubmitContext): Promise<Run | Result | Job>
}
