import type { CallOptions, Job, Result } from '../definition.js'
import type { ToolsError } from '../errors.js'
import type { JournalStore, Run, WebStorage } from './journal.js'
import type { RunClient } from './runRecord.js'
import type { RunsHost } from './runsHost.js'

/** What a client needs to keep its runs: where, and whose they are (the client's own configuration). */
export interface DurableOptions {
  baseUrl: string
  apiKey?: string | (() => string | Promise<string>)
  /** Behind a proxy, who runs them: each person's runs are kept apart. */
  user?: string
  journal: JournalStore | WebStorage
}

/** A run `resume()` took up: its job at the end, or why it could not end. */
export interface ResumedRun<T extends string = string> {
  run: Run<T>
  job?: Job<T>
  error?: ToolsError
}

/**
 * A client's runs journaled: a deferred tool's run is written before its POST leaves and
 * forgotten once its end is seen, so a process killed at any moment and started again with the
 * same journal finishes it with one bill (`resume`, or `run` with the same input).
 */
export function durableRuns(kit: RunsHost, client: RunClient, deferred: (tool: string) => boolean, options: DurableOptions) {
  const { issue, isToolsError, toToolsError, validationError, isTerminal, fingerprint, createJournal, journalStore, submit } = kit
  const journal = createJournal(journalStore(options.journal))
  // Computed from the configuration given, never read back out of the client.
  const own = async () =>
    fingerprint(options.baseUrl, typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey, options.user)

  /** Follows a journaled run's job to its end, journaling its phase as it moves, then forgets it. */
  async function finish(run: Run, opts: CallOptions): Promise<Job> {
    let phase = run.phase
    let writing = Promise.resolve()
    const onJob = (job: Job) => {
      opts.onJob?.(job)
      if (job.phase === phase || isTerminal(job.phase)) return
      phase = job.phase
      writing = writing.then(() => journal.put({ ...run, phase, updatedAt: Date.now() }))
    }
    try {
      const job = await client.wait(run.tool, run.jobId!, { ...opts, onJob })
      await writing
      await journal.drop(run)
      return job
    } catch (error) {
      await writing
      // A failed job's end is seen too; any other failure leaves the run for the next resume.
      if (isToolsError(error) && error.kind === 'job-failed') await journal.drop(run)
      throw error
    }
  }

  async function run(tool: string, input: unknown, opts: CallOptions = {}): Promise<Result | Job> {
    if (!deferred(tool)) return client.run(tool, input, opts)
    const intent = { input, idempotencyKey: opts.idempotencyKey, signal: opts.signal ?? new AbortController().signal, client }
    const context = { ...opts, tool, journal, holder: { current: undefined }, show: () => undefined }
    const journaled = (await submit({ ...intent, fingerprint: await own() }, context)) as Run
    return finish(journaled, opts)
  }

  /** One run a crash left, taken up: its job followed, or its POST re-sent with its own key. */
  async function takeUp(left: Run, opts: CallOptions): Promise<ResumedRun> {
    try {
      if (left.jobId) return { run: left, job: await finish(left, opts) }
      // A file's bytes are never journaled: such a run waits for its file (run it again with it).
      if (left.file) return { run: left, error: validationError([issue('file', 'required')], left.tool) }
      return { run: left, job: (await run(left.tool, left.input, { ...opts, idempotencyKey: left.idempotencyKey })) as Job }
    } catch (error) {
      return { run: left, error: toToolsError(error, left.tool) }
    }
  }

  return {
    run,
    /** The journal's runs of this key (and person), newest first. */
    runs: async (): Promise<Run[]> => journal.list(await own()),
    /** Finishes every run a crash or reload left; settles with each one's end, never rejects. */
    resume: async (opts: CallOptions = {}): Promise<ResumedRun[]> => {
      const left = (await journal.list(await own())).filter((entry) => !entry.seen)
      return Promise.all(left.map((entry) => takeUp(entry, opts)))
    },
  }
}
