import { pollDelay } from '../tools/internal.js'
import { createJobChannel } from './jobChannel.js'
import { jobName, versionOf, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'
import { JOBS_CHANNEL, keys } from './keys.js'
import type { ProxyStore } from './store.js'

export { endedIn, versionOf, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'

/** How long a webhook about a job the store does not know is kept, for the job's first snapshot to take. */
const EARLY_WEBHOOK_TTL = 2 * 60 * 1000

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
  const name = jobName
  const statusKey = (key: JobKey) => keys.status(name(key))

  const kept = async (key: JobKey): Promise<JobSnapshot | undefined> => {
    const text = await store.get(statusKey(key))
    return text ? (JSON.parse(text) as JobSnapshot) : undefined
  }

  const channel = createJobChannel(store, kept, options.report)
  const { tell } = channel

  /** Keeps and publishes a job's new snapshot; an ended job's stays (a late, earlier status cannot replace it). */
  async function put(key: JobKey, snapshot: JobSnapshot, previous?: JobSnapshot): Promise<JobSnapshot> {
    const before = previous ?? (await kept(key))
    const next = await write(key, snapshot, before)
    // The store's first snapshot of the job (its creation, or the store lost what it held): a
    // webhook names only the job, so its tool is remembered, and one that came first is taken.
    if (!before && options.webhookQuietMs !== undefined) {
      await store.set(keys.job(key.jobId), key.toolPath, options.keepMs)
      const early = await store.get(keys.early(key.jobId))
      const told = early ? (JSON.parse(early) as JobSnapshot) : undefined
      if (told && (told.terminal || told.readAt > next.readAt)) return write(key, told, next)
    }
    return next
  }

  async function write(key: JobKey, snapshot: JobSnapshot, before: JobSnapshot | undefined): Promise<JobSnapshot> {
    if (before?.terminal) return before
    const next = { ...snapshot, since: before?.since ?? snapshot.since ?? snapshot.readAt }
    const text = JSON.stringify(next)
    if (next.terminal) {
      // The first end written wins, atomically: it is what every later write gives way to.
      const ended = await store.hold(keys.ended(name(key)), text, options.keepMs)
      await store.set(statusKey(key), ended, options.keepMs)
      if (ended !== text) return JSON.parse(ended) as JobSnapshot
    } else {
      await store.set(statusKey(key), text, options.keepMs)
      // An end written between our read and our write would be overwritten: put it back.
      const ended = await store.get(keys.ended(name(key)))
      if (ended) {
        await store.set(statusKey(key), ended, options.keepMs)
        return JSON.parse(ended) as JobSnapshot
      }
    }
    if (!before || versionOf(before) !== versionOf(next)) await store.publish(JOBS_CHANNEL, JSON.stringify({ key, snapshot: next }))
    return next
  }

  /**
   * A webhook's snapshot of a job it names by id only: kept under the job's tool, or, for a job
   * the store does not know (its creation's answer is still on its way, the store lost it, or it
   * is another app's), kept aside for the job's next first snapshot to take.
   */
  async function putWebhook(jobId: string, snapshot: JobSnapshot): Promise<void> {
    let toolPath = await store.get(keys.job(jobId))
    if (!toolPath) {
      await store.set(keys.early(jobId), JSON.stringify(snapshot), EARLY_WEBHOOK_TTL)
      // The job's first snapshot may have been written meanwhile, before this was kept aside.
      toolPath = await store.get(keys.job(jobId))
    }
    if (toolPath) await put({ toolPath, jobId }, snapshot)
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
        const claim = keys.reading(id)
        if (!(await store.claim(claim, options.freshMs))) {
          const heard = await channel.newerWithin(key, previous, options.freshMs)
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

  /** Reads the service for a job while this instance holds its lease and pages here listen. */
  async function watchLoop(key: JobKey) {
    const id = name(key)
    let lastTry = 0
    while (channel.watched(id)) {
      let wait = options.leaseMs / 2
      try {
        const snapshot = await kept(key)
        if (snapshot?.terminal) {
          tell(id, snapshot)
          return
        }
        if (await store.lease(keys.lease(id), instance, options.leaseMs)) {
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
    putWebhook,

    /** The job's status, from the store when it is current enough, else from the service. */
    async read(key: JobKey): Promise<JobSnapshot> {
      const snapshot = await kept(key)
      const read = snapshot && snapshot.readAt > 0 ? snapshot : undefined
      if (read && (read.terminal || Date.now() - read.readAt < options.freshMs)) return read
      // With webhooks, what the store holds is current until they fall quiet: the creation's answer too.
      const quiet = options.webhookQuietMs
      if (snapshot && quiet !== undefined && Date.now() - (snapshot.readAt || snapshot.since || 0) < quiet) return snapshot
      // A watcher keeps the snapshot current: no need to read.
      if (read && (await store.get(keys.lease(name(key))))) return read
      return readNow(key, snapshot)
    },

    /** The job's snapshot as kept, if any. */
    current: kept,

    /**
     * Tells `listener` of every new snapshot of the job (and, once listening, of the one kept, if
     * any) until the returned function is called; while anyone here listens, the job is watched.
     */
    async watch(key: JobKey, listener: (snapshot: JobSnapshot) => void): Promise<() => void> {
      await channel.subscribe()
      const { first, stop } = channel.listen(key, listener)
      const snapshot = await kept(key).catch((error: unknown) => {
        stop()
        throw error
      })
      // The creation's answer too: a page that did not create the job has nothing else.
      if (snapshot) listener(snapshot)
      if (first) void watchLoop(key)
      return stop
    },
  }
}

export type JobStatus = ReturnType<typeof createJobStatus>
