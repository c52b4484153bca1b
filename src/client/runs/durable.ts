import type { CallOptions, Job, JobHandle, Result } from '../definition.js'
import type { ToolsError } from '../errors.js'
import { boundedJournal, type JournalLimits } from './bounds.js'
import type { JournalProblem, JournalStore, Run, WebStorage } from './journal.js'
import type { RunClient } from './runRecord.js'
import type { RunsHost } from './runsHost.js'

/** What a client needs to keep its runs: where, and whose they are (the client's own configuration). */
export interface DurableOptions {
  baseUrl: string
  apiKey?: string | (() => string | Promise<string>)
  /** Behind a proxy, who runs them: each person's runs are kept apart. */
  user?: string
  /** Without one, this client's memory: the same input run again in this process is the same run. */
  journal?: JournalStore | WebStorage
  journalLimits?: JournalLimits
  onJournalError?: (problem: JournalProblem) => void
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
export function durableRuns(kit: RunsHost, client: DurableClient, deferred: (tool: string) => boolean, options: DurableOptions) {
  const { issue, isToolsError, toToolsError, validationError, isTerminal, fingerprint, createJournal, journalStore, submit } = kit
  const report = reporter(options)
  const journal = boundedJournal(createJournal(journalStore(options.journal ?? inMemory()), report), options.journalLimits, report, deferred)
  // Computed from the configuration given, never read back out of the client.
  const own = async () =>
    fingerprint(options.baseUrl, typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey, options.user)

  /** Follows a run's job to its end (one its POST just made as `run` does), journaling its phase, then forgets it. */
  async function finish({ run, started }: Posted, opts: CallOptions): Promise<Job> {
    let phase = run.phase
    let writing = Promise.resolve()
    const onJob = (job: Job) => {
      opts.onJob?.(job)
      if (job.phase === phase || isTerminal(job.phase)) return
      phase = job.phase
      writing = writing.then(() => journal.put({ ...run, phase, updatedAt: Date.now() }))
    }
    try {
      const following = { ...opts, onJob }
      const job = await (started ? client.followStarted(run.tool, started, following) : client.wait(run.tool, run.jobId!, following))
      await writing
      await journal.drop(run)
      return run.replayed ? { ...job, replayed: true } : job
    } catch (error) {
      await writing
      // A failed job's end is seen too, and a job the service no longer knows never ends; any
      // other failure leaves the run for the next resume (or the same input run again).
      if (isToolsError(error) && (error.kind === 'job-failed' || error.kind === 'not-found')) await journal.drop(run)
      throw error
    }
  }

  /** Journals a deferred run and sends its POST (or finds the job the same intent made): the run with its job. */
  async function post(tool: string, input: unknown, opts: CallOptions): Promise<Posted> {
    let started: JobHandle | undefined
    // The POST's answer, kept: none when the same intent's job was found instead.
    const sending: RunClient = { ...client, start: async (...args) => (started = await client.start(...args)) }
    const intent = { input, idempotencyKey: opts.idempotencyKey, signal: opts.signal ?? new AbortController().signal, client: sending }
    const context = { ...opts, tool, journal, holder: { current: undefined }, show: () => undefined }
    const run = (await submit({ ...intent, fingerprint: await own() }, context)) as Run
    return { run, started }
  }

  async function run(tool: string, input: unknown, opts: CallOptions = {}): Promise<Result | Job> {
    if (!deferred(tool)) return client.run(tool, input, opts)
    return finish(await post(tool, input, opts), opts)
  }

  /**
   * One run a crash left, taken up: its job followed, or its POST re-sent with its own key. POSTs
   * wait their turn in `line`: a resume never sends a burst, whatever the pace would allow.
   */
  async function takeUp(left: Run, opts: CallOptions, line: <R>(send: () => Promise<R>) => Promise<R>): Promise<ResumedRun> {
    try {
      if (left.jobId) return { run: left, job: await finish({ run: left }, opts) }
      // A file's bytes are never journaled: such a run waits for its file (run it again with it).
      if (left.file) return { run: left, error: validationError([issue('file', 'required')], left.tool) }
      const sent = await line(() => post(left.tool, left.input, { ...opts, idempotencyKey: left.idempotencyKey }))
      return { run: left, job: await finish(sent, opts) }
    } catch (error) {
      return { run: left, error: toToolsError(error, left.tool) }
    }
  }

  const listed = lister(journal, own, report)

  return {
    run,
    /** The journal's runs of this key (and person), newest first; never rejects. */
    runs: listed,
    /** Finishes every run a crash or reload left, one POST at a time; settles with each one's end, never rejects. */
    resume: async (opts: CallOptions = {}): Promise<ResumedRun[]> => {
      const line = oneAtATime()
      const left = (await listed()).filter((entry) => !entry.seen)
      return Promise.all(left.map((entry) => takeUp(entry, opts, line)))
    },
  }
}

/** The client a run is sent and followed by: a job its POST just made is followed as `run` follows it. */
export interface DurableClient extends RunClient {
  followStarted(tool: string, started: JobHandle, opts: CallOptions): Promise<Job>
}

/** A journaled run, with the POST's answer when this call's POST made its job. */
interface Posted {
  run: Run
  started?: JobHandle
}

/** The journal's runs of this key (and person); none, reported, where the store or the key cannot be read. */
function lister(journal: { list(fingerprint: string): Promise<Run[]> }, own: () => Promise<string>, report: (problem: JournalProblem) => void) {
  return async (): Promise<Run[]> => {
    try {
      return await journal.list(await own())
    } catch (cause) {
      report({ reason: 'unavailable', cause })
      return []
    }
  }
}

/** Tells `onJournalError`; the listener's failure is its own: runs go on. */
function reporter(options: DurableOptions) {
  return (problem: JournalProblem) => {
    try {
      options.onJournalError?.(problem)
    } catch {
      // Nothing to do: the run matters more than the report.
    }
  }
}

/** A line the sends wait their turn in, one after another, whatever each one's end. */
function oneAtATime() {
  let turn: Promise<unknown> = Promise.resolve()
  return <R>(send: () => Promise<R>) => {
    const mine = turn.then(send)
    turn = mine.catch(() => undefined)
    return mine
  }
}

/** A store in this process's memory (memoryJournal's, written here so no bundler splits journal.js into a chunk of its own). */
function inMemory(): JournalStore {
  const runs = new Map<string, Run>()
  return { get: (key) => runs.get(key), set: (key, run) => void runs.set(key, run), remove: (key) => void runs.delete(key), keys: () => runs.keys() }
}
