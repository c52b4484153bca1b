import type { Job, Presence, Result, Waiting } from '../definition.js'
import { abortError, toToolsError, ToolsError } from '../errors.js'
import { jobFailedError } from '../interpret.js'
import { isTerminal } from '../phase.js'
import { belongsTo } from './fingerprint.js'
import type { Journal, Run, RunPhase } from './journal.js'
import { resumable, saveRun, type Journaled } from './runRecord.js'
import { submit, type Intent } from './submit.js'
import type { CallState, RunSnapshot } from './view.js'

export interface RunObserverOptions {
  tool: string
  deferred: boolean
  /** Where deferred runs are journaled; false for none (a sync tool). */
  journal: Journal | false
  /** Tells two observers of one tool apart (a widget's tag): each resumes only the runs it started. */
  tag?: string
  presence?: Presence
}

/** Who a run is sent as: the client and fingerprint of the key at that moment. */
export type Sender = Pick<Intent, 'client' | 'fingerprint'>

/** How an observer's calls leave and its jobs are followed; a framework bridge may route them (a query cache). */
export interface RunRoutes {
  send(intent: Intent): Promise<Run | Result | Job>
  follow(intent: Intent, jobId: string): Promise<Job>
}

export interface RunCallOptions {
  signal?: AbortSignal
  idempotencyKey?: string
}

const IDLE: CallState = { status: 'idle' }
const OFFLINE: Waiting = Object.freeze({ reason: 'offline' })

/** Holds a call while the device is offline, telling so; it leaves once back online (or aborted). */
async function whileOffline(presence: Presence | undefined, signal: AbortSignal, tell: (waiting: Waiting | null) => void) {
  if (!presence?.offline()) return
  tell(OFFLINE)
  await new Promise<void>((resolve) => {
    const done = () => (stop(), signal.removeEventListener('abort', done), resolve())
    const stop = presence.subscribe(() => !presence.offline() && done())
    signal.addEventListener('abort', done, { once: true })
  })
  tell(null)
}

/**
 * One tool's run, framework-free: submit (journal, then POST), follow its job, resume the run a
 * reload or crash left, reset, retry. State lives in private fields; `subscribe`/`getSnapshot`
 * let any framework (React's `useSyncExternalStore`) or a script watch it.
 */
export class RunObserver {
  #options: RunObserverOptions
  #snapshot: RunSnapshot = { current: undefined, ends: {}, uploadProgress: null, callWaiting: null, call: IDLE, job: {} }
  #listeners = new Set<() => void>()
  #inflight: Promise<unknown> | null = null
  #controller: AbortController | null = null
  #lastRun: [unknown, RunCallOptions] | null = null
  // Whether anyone still watches a deferred run: a script does; a component from mount to unmount.
  #mounted = true
  // The run as last journaled, for writes made outside a render (reset, answers after unmount).
  #holder: Journaled = { current: undefined }

  constructor(options: RunObserverOptions) {
    this.#options = options
  }

  setOptions(options: RunObserverOptions) {
    this.#options = options
  }

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener)
    return () => void this.#listeners.delete(listener)
  }

  getSnapshot = () => this.#snapshot

  #set(change: Partial<RunSnapshot>) {
    this.#snapshot = { ...this.#snapshot, ...change }
    this.#listeners.forEach((listener) => listener())
  }

  #show = (run: Run | undefined) => this.#set({ current: run })

  /** Sends one intent as this observer's (journaled first for a deferred tool). */
  submit = (intent: Intent) => {
    const { tool, deferred, journal, tag, presence } = this.#options
    return submit(intent, {
      tool,
      journal: deferred && journal,
      tag,
      holder: this.#holder,
      show: this.#show,
      onUploadProgress: (uploadProgress) => this.#set({ uploadProgress }),
      onWait: (callWaiting) => this.#set({ callWaiting }),
      presence,
    })
  }

  /** The default routes: the call straight out, the job followed by the client. */
  #routes: RunRoutes = {
    send: this.submit,
    follow: (intent, jobId) =>
      intent.client.wait(this.#options.tool, jobId, {
        signal: intent.signal,
        presence: this.#options.presence,
        onJob: (job) => this.#answered(job, intent.fingerprint),
      }),
  }

  /**
   * Starts a run; while one is in flight, the same promise (a double click never pays twice). A
   * bridge may route the job's following (through its cache); the call leaves through `submit`.
   */
  runAsync<R = Result | Job>(input: unknown, opts: RunCallOptions, sender: Sender, routes: Partial<RunRoutes> = {}): Promise<R> {
    if (this.#inflight) return this.#inflight as Promise<R>
    const abort = new AbortController()
    this.#controller = abort
    const signal = opts.signal ? AbortSignal.any([opts.signal, abort.signal]) : abort.signal
    const intent: Intent = { ...opts, input, signal, ...sender }
    this.#set({ uploadProgress: null, call: { status: 'pending', fingerprint: sender.fingerprint }, job: {} })
    const { send, follow } = { ...this.#routes, ...routes }
    const answer = whileOffline(this.#options.presence, signal, (callWaiting) => this.#set({ callWaiting })).then(() => send(intent))
    const flow = this.#flow(answer, intent, follow).finally(() => {
      if (this.#inflight === flow) this.#inflight = null
    })
    this.#inflight = flow
    this.#lastRun = [input, opts]
    return flow as Promise<R>
  }

  /**
   * A run's answer, then a deferred tool's job followed to its end while someone watches. Reset
   * or aborted while the answer was on its way, the job may exist, but this run is over.
   */
  async #flow(answer: Promise<Run | Result | Job>, intent: Intent, follow: RunRoutes['follow']): Promise<Result | Job> {
    const { tool, deferred } = this.#options
    const controller = this.#controller
    try {
      // A call reset meanwhile is no longer this observer's: its answer changes nothing shown.
      const settle = (call: CallState) => this.#controller === controller && this.#set({ call })
      const done = await answer.then(
        (data) => (settle({ status: 'success', data, fingerprint: intent.fingerprint }), data),
        (error: unknown) => {
          const failed = toToolsError(error, tool)
          settle({ status: 'error', error: failed, fingerprint: intent.fingerprint })
          throw failed
        },
      )
      if (intent.signal.aborted) throw abortError(tool, intent.signal.reason)
      if (!deferred) return done as Result
      const { jobId } = done as Run
      // Nobody watches any more: the journal keeps the job for the next mount, unfollowed.
      if (!this.#mounted) throw new ToolsError('aborted', 'Unmounted; the run is journaled.', { tool, jobId })
      const final = await follow(intent, jobId!)
      if (final.phase === 'failed') throw jobFailedError(final, intent.client.interpret)
      return final
    } catch (error) {
      throw toToolsError(error, tool)
    }
  }

  /** A job read: kept for the view, and its phase journaled. */
  #answered(job: Job, fingerprint: string) {
    this.#set({ job: { data: job } })
    this.journalPhase(job.jobId, job.phase, fingerprint)
  }

  /**
   * Journals the phase a job's read showed, if it is this observer's run; an end is noted as seen,
   * and where it was shown (the key in effect), for shownRun.
   */
  journalPhase(jobId: string | undefined, phase: RunPhase | undefined, fingerprint: string) {
    const run = this.#holder.current
    const journal = this.#options.journal
    // A phase is known only for a shown job: one that is not the journaled run is not this one's.
    if (!journal || !phase || !run || run.jobId !== jobId) return
    const seen = isTerminal(phase)
    if (phase === run.phase && (!seen || run.seen)) return
    void saveRun(journal, this.#holder, run, { phase, seen }).then((saved) => {
      // The run shown is the run as journaled (its phase, whether its end was seen).
      const current = this.#snapshot.current?.id === saved.id ? saved : this.#snapshot.current
      this.#set(seen ? { current, ends: { [jobId!]: fingerprint } } : { current })
    })
  }

  /** Cancels what is in flight and forgets the run shown (a job set aside stays journaled, listed, not resumed). */
  reset() {
    this.#controller?.abort(new DOMException('The run was reset.', 'AbortError'))
    this.#controller = null
    this.#inflight = null
    const run = this.#holder.current
    const { journal } = this.#options
    if (run?.jobId && journal) void saveRun(journal, this.#holder, run, { seen: true })
    this.#holder.current = undefined
    this.#set({ current: undefined, uploadProgress: null, callWaiting: null, call: IDLE, job: {} })
  }

  /**
   * While mounted, resumes the newest run of this tool (and tag) nobody has seen the end of.
   * Never in place of a run already shown: this key's, or another key's still unfinished, of the
   * same person. Any other has left the view: it is let go. Returns the unmount.
   */
  mount(fingerprint: string, user: string | undefined, run: (input: never, opts: RunCallOptions) => void): () => void {
    const { journal, deferred, tool, tag } = this.#options
    if (!deferred || !journal) return () => undefined
    this.#mounted = true
    let live = true
    void journal.list(fingerprint).then((runs) => {
      const found = resumable(runs, tool, tag)
      const shown = this.#holder.current
      const kept = shown && belongsTo(shown.fingerprint, user) && (shown.fingerprint === fingerprint || !isTerminal(shown.phase))
      // A list read for an earlier key or mount is stale; a run in flight is what is shown.
      if (!live || this.#inflight || kept) return
      this.#show((this.#holder.current = found))
      // A JSON run whose answer was never seen is sent again with its own key (the journal finds
      // it by that key): a replay, not a new bill.
      if (found && !found.jobId && !found.file) run(found.input as never, { idempotencyKey: found.idempotencyKey })
    })
    return () => {
      live = false
      this.#mounted = false
    }
  }

  /**
   * Tries the last run again after a failure: a job whose reads failed is read again (`reread`)
   * rather than created again; the same intent keeps its key; a failed job is tried afresh.
   */
  retry(job: { jobId?: string; readFailed: boolean; failed: boolean; reread(): void }, run: (input: never, opts: RunCallOptions) => void) {
    if (this.#inflight) return
    if (job.jobId && job.readFailed) return job.reread()
    if (!this.#lastRun) return
    const [input, opts] = this.#lastRun
    run(input as never, job.failed ? { ...opts, idempotencyKey: undefined } : opts)
  }
}
