import { defaultInterpretation, isTerminal } from '../tools/index.js'
import { hashText, pollDelay } from '../tools/internal.js'
import type { ProxyStore } from './store.js'

/** A job as the service last told of it (a read's answer or a webhook): one for every user and instance, before any per-user rewriting. */
export interface JobSnapshot {
  /** The service's HTTP status. */
  status: number
  /** The service's body, as text. */
  body: string
  /** The service's headers that mean something to the browser (`x-request-id`, `retry-after`). */
  headers: Record<string, string>
  /** When it was read (ms since the epoch); 0 for the creation's answer, which no read has confirmed yet. */
  readAt: number
  /** The job has ended: its snapshot never changes. */
  terminal: boolean
  /** When the job was first known (its creation, as far as the proxy saw it): its age sets the pace of reads. */
  since?: number
}

export interface JobStatusOptions {
  /** How long a snapshot of a running job is served without reading again, when nobody watches the job. */
  freshMs: number
  /** How long a finished job's snapshot is kept. */
  keepMs: number
  /** How long a watcher's lease lasts unless renewed; another instance takes over after it. */
  leaseMs: number
  /** The service sends webhooks: a watcher waits this long for one before reading the job itself. */
  webhookQuietMs?: number
  /** Tells the partner of a watcher's failed read. */
  report: (message: string) => void
}

/** A job's identity in the store: its tool's path and the service's id. */
export interface JobKey {
  toolPath: string
  jobId: string
}

/** Whether a job body says the job has ended (the spec's `status` field, read as the client reads it). */
export function endedIn(body: string): boolean {
  try {
    const status = (JSON.parse(body) as { status?: unknown } | null)?.status
    return typeof status === 'string' && isTerminal(defaultInterpretation.phase(status))
  } catch {
    return false
  }
}

/** A short name of what a snapshot says: two snapshots with the same status and body are one version. */
export const versionOf = (snapshot: Pick<JobSnapshot, 'status' | 'body'>) => hashText(`${snapshot.status}\n${snapshot.body}`)

const CHANNEL = 'jobs'
const ok = (snapshot: JobSnapshot) => snapshot.status >= 200 && snapshot.status < 300

/**
 * A job's status, shared by every page and instance.
 * - Reads: the snapshot kept in the store answers while it is fresh, while a watcher keeps it
 *   current, and forever once the job has ended; concurrent reads in one process share one request
 *   to the service. A flood of reads costs the service at most one read per job per `freshMs`.
 * - Updates (a read, a webhook, the creation's answer) are kept in the store and published to
 *   every instance; a finished job's snapshot is never replaced by an earlier status.
 * - Watching: while pages listen to a job, one instance (the holder of a lease in the store) reads
 *   it at the client's pace (or, with webhooks, only when they fall quiet) until it ends.
 */
export function createJobStatus(
  store: ProxyStore,
  readService: (key: JobKey) => Promise<JobSnapshot>,
  options: JobStatusOptions,
) {
  const instance = crypto.randomUUID()
  const inFlight = new Map<string, Promise<JobSnapshot>>()
  const name = ({ toolPath, jobId }: JobKey) => `${toolPath}:${jobId}`
  const statusKey = (key: JobKey) => `status:${name(key)}`

  const kept = async (key: JobKey): Promise<JobSnapshot | undefined> => {
    const text = await store.get(statusKey(key))
    return text ? (JSON.parse(text) as JobSnapshot) : undefined
  }

  /** Keeps and publishes a job's new snapshot; an ended job's stays (a late, earlier status cannot replace it). */
  async function put(key: JobKey, snapshot: JobSnapshot, previous?: JobSnapshot): Promise<JobSnapshot> {
    const before = previous ?? (await kept(key))
    if (before?.terminal) return before
    const next = { ...snapshot, since: before?.since ?? snapshot.since ?? snapshot.readAt }
    const text = JSON.stringify(next)
    if (next.terminal) {
      // The first end written wins, atomically: it is what every later write gives way to.
      const ended = await store.hold(`ended:${name(key)}`, text, options.keepMs)
      await store.set(statusKey(key), ended, options.keepMs)
      if (ended !== text) return JSON.parse(ended) as JobSnapshot
    } else {
      await store.set(statusKey(key), text, options.keepMs)
      // An end written between our read and our write would be overwritten: put it back.
      const ended = await store.get(`ended:${name(key)}`)
      if (ended) {
        await store.set(statusKey(key), ended, options.keepMs)
        return JSON.parse(ended) as JobSnapshot
      }
    }
    if (!before || versionOf(before) !== versionOf(next)) await store.publish(CHANNEL, JSON.stringify({ key, snapshot: next }))
    return next
  }

  /**
   * One read of the service per job at a time, in this process and across instances (a claim in
   * the store: who loses it waits for the winner's answer on the channel); a job's answer is kept
   * and published.
   */
  function readNow(key: JobKey, previous: JobSnapshot | undefined): Promise<JobSnapshot> {
    const id = name(key)
    let reading = inFlight.get(id)
    if (!reading) {
      reading = (async () => {
        const claim = `reading:${id}`
        if (!(await store.claim(claim, options.freshMs))) {
          const heard = await newerWithin(key, previous, options.freshMs)
          if (heard) return heard
        }
        try {
          const snapshot = await readService(key)
          // Only a job's own answer is shared; a refusal or a failure is read again next time.
          return ok(snapshot) ? await put(key, snapshot, previous) : snapshot
        } finally {
          await store.release(claim).catch(() => {})
        }
      })().finally(() => inFlight.delete(id))
      inFlight.set(id, reading)
    }
    return reading
  }

  /** A snapshot of the job newer than `previous`, published or kept within `ms`, or undefined. */
  async function newerWithin(key: JobKey, previous: JobSnapshot | undefined, ms: number): Promise<JobSnapshot | undefined> {
    const id = name(key)
    await subscribe()
    return new Promise((resolve) => {
      const done = (snapshot: JobSnapshot | undefined) => {
        clearTimeout(timer)
        awaiting.get(id)?.delete(done)
        if (awaiting.get(id)?.size === 0) awaiting.delete(id)
        resolve(snapshot)
      }
      const timer = setTimeout(() => done(undefined), ms)
      let each = awaiting.get(id)
      if (!each) awaiting.set(id, (each = new Set()))
      each.add(done)
      // Kept before we listened: no message will come for it.
      kept(key).then(
        (snapshot) => snapshot && snapshot.readAt > (previous?.readAt ?? 0) && done(snapshot),
        () => {},
      )
    })
  }

  // Watching: one subscription per instance, fanned out to the listeners of each job here.
  const listeners = new Map<string, { key: JobKey; each: Set<(snapshot: JobSnapshot) => void> }>()
  /** Reads waiting on another instance's read of the job. */
  const awaiting = new Map<string, Set<(snapshot: JobSnapshot) => void>>()
  let subscription: Promise<() => Promise<void>> | undefined
  const tell = (id: string, snapshot: JobSnapshot) => {
    for (const listener of listeners.get(id)?.each ?? []) listener(snapshot)
    for (const waiter of awaiting.get(id) ?? []) waiter(snapshot)
  }
  const subscribe = () =>
    (subscription ??= store
      .subscribe(CHANNEL, {
        message(message) {
          const { key, snapshot } = JSON.parse(message) as { key: JobKey; snapshot: JobSnapshot }
          tell(name(key), snapshot)
        },
        missed() {
          for (const [id, { key }] of listeners) {
            kept(key).then(
              (snapshot) => snapshot && snapshot.readAt > 0 && tell(id, snapshot),
              (error: unknown) => options.report(`a job's status could not be read again: ${String(error)}`),
            )
          }
        },
      })
      .catch((error: unknown) => {
        subscription = undefined
        throw error
      }))

  /** Reads the service for a job while this instance holds its lease and pages here listen. */
  async function watchLoop(key: JobKey) {
    const id = name(key)
    let lastTry = 0
    while (listeners.has(id)) {
      let wait = options.leaseMs / 2
      try {
        const snapshot = await kept(key)
        if (snapshot?.terminal) {
          tell(id, snapshot)
          return
        }
        if (await store.lease(`lease:${id}`, instance, options.leaseMs)) {
          const now = Date.now()
          const age = now - (snapshot?.since ?? now)
          const pace = options.webhookQuietMs ?? pollDelay(age, 3000, false)
          const due = Math.max(snapshot?.readAt || snapshot?.since || 0, lastTry) + pace
          if (!snapshot || now >= due) {
            lastTry = now
            const read = await readNow(key, snapshot)
            // A refusal (the job is gone, the key lost its scope) is told as it is: the page reads it itself.
            if (!ok(read)) tell(id, read)
            if (!ok(read) && read.status !== 429 && read.status < 500) return
            wait = Math.min(options.leaseMs / 3, pace)
          } else {
            wait = Math.min(options.leaseMs / 3, due - now)
          }
        }
      } catch (error) {
        options.report(`watching a job: ${error instanceof Error ? error.message : String(error)}`)
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(50, wait)))
    }
  }

  return {
    put,

    /** The job's status, from the store when it is current enough, else from the service. */
    async read(key: JobKey): Promise<JobSnapshot> {
      const snapshot = await kept(key)
      const read = snapshot && snapshot.readAt > 0 ? snapshot : undefined
      if (read && (read.terminal || Date.now() - read.readAt < options.freshMs)) return read
      // With webhooks, what the store holds is current until they fall quiet: the creation's answer too.
      const quiet = options.webhookQuietMs
      if (snapshot && quiet !== undefined && Date.now() - (snapshot.readAt || snapshot.since || 0) < quiet) return snapshot
      // A watcher keeps the snapshot current: no need to read.
      if (read && (await store.get(`lease:${name(key)}`))) return read
      return readNow(key, snapshot)
    },

    /** The job's snapshot as kept, if any. */
    current: kept,

    /**
     * Tells `listener` of every new snapshot of the job (and, once listening, of the one kept, if
     * any) until the returned function is called; while anyone here listens, the job is watched.
     */
    async watch(key: JobKey, listener: (snapshot: JobSnapshot) => void): Promise<() => void> {
      await subscribe()
      const id = name(key)
      let entry = listeners.get(id)
      const starts = !entry
      if (!entry) listeners.set(id, (entry = { key, each: new Set() }))
      entry.each.add(listener)
      const stop = () => {
        entry.each.delete(listener)
        if (entry.each.size === 0 && listeners.get(id) === entry) listeners.delete(id)
      }
      const snapshot = await kept(key).catch((error: unknown) => {
        stop()
        throw error
      })
      // The creation's answer is not news to the page that created the job.
      if (snapshot && snapshot.readAt > 0) listener(snapshot)
      if (starts) void watchLoop(key)
      return stop
    },
  }
}

export type JobStatus = ReturnType<typeof createJobStatus>
