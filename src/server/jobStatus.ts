import { batchedGets } from './batchedGets.js'
import { createJobChannel } from './jobChannel.js'
import { winnersNews } from './jobClaim.js'
import { jobName, servedUntil, succeeded as ok, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'
import { watchLoop } from './jobWatch.js'
import { jobWriter } from './jobWrite.js'
import { keys } from './keys.js'
import { together, togetherByTag, type ProxyStore, type StoreOperation } from './stores/store.js'
export { endedIn, versionOf, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'

/** How long a webhook about a job the store does not know is kept, for the job's first snapshot to take. */
const EARLY_WEBHOOK_TTL = 2 * 60 * 1000

/** What a read that reaches the service adds to the store's write of its answer (one trip for both), given the answer. */
type WithWrite = (snapshot: JobSnapshot) => readonly StoreOperation[]
/** A read's snapshot, and what its `WithWrite` operations answered when they went with the write. */
interface Read {
  snapshot: JobSnapshot
  added?: unknown[]
}

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
export function createJobStatus(store: ProxyStore, readService: (key: JobKey) => Promise<JobSnapshot>, options: JobStatusOptions) {
  const instance = crypto.randomUUID()
  const inFlight = new Map<string, Promise<Read>>()
  const name = jobName
  const statusKey = (key: JobKey) => keys.status(key)
  const parsed = (text: string | undefined) => (text ? (JSON.parse(text) as JobSnapshot) : undefined)
  const kept = async (key: JobKey) => parsed(await store.get(statusKey(key)))
  const keptTogether = batchedGets(store) // the snapshots a stream asks for as it opens: one trip for all

  const channel = createJobChannel(store, kept, options.report)
  /** Until when each job was current as this instance last saw it: a hint, never a reason to answer. */
  const currentUntil = new Map<string, number>()
  const noteCurrent = (id: string, snapshot: JobSnapshot) => {
    if (currentUntil.size >= 10_000) currentUntil.clear()
    currentUntil.set(id, servedUntil(snapshot, options))
  }
  /** Gives a claim back without waiting: whoever wants it next finds it free a round trip later. */
  const letGo = (claim: string) => void store.release(claim).catch(() => {})
  const { write, writeNew } = jobWriter(store, options.keepMs)
  const { tell } = channel

  /**
   * Keeps and publishes a job's new snapshot; an ended job's stays (a late, earlier status cannot
   * replace it). `previous` 'new': a creation's, written unless the store holds one, with no read
   * first. `also` goes to the store in the same trip as the write: what it answered too.
   */
  async function put(key: JobKey, snapshot: JobSnapshot, previous?: JobSnapshot | 'new', also: readonly StoreOperation[] = []) {
    // The store's first snapshot of the job (its creation, or the store lost what it held): a
    // webhook names only the job, so its tool is remembered, and one that came first is taken.
    const remember: StoreOperation[] =
      options.webhookQuietMs === undefined
        ? []
        : [{ op: 'set', key: keys.job(key.jobId), value: key.toolPath, ttlMs: options.keepMs }, { op: 'get', key: keys.early(key.jobId) }]
    let written: { next: JobSnapshot; answers: unknown[]; early?: unknown }
    if (previous === 'new' && !snapshot.terminal) {
      const { next, first, also: answers } = await writeNew(key, snapshot, remember, also)
      written = { next, answers, early: first[1] }
    } else {
      const before = previous === 'new' ? await kept(key) : (previous ?? (await kept(key)))
      const first = before ? [] : remember
      const { next, answers } = await write(key, snapshot, before, [...first, ...also])
      written = { next, answers: answers.slice(first.length), early: first.length > 0 ? answers[1] : undefined }
    }
    const { next, answers, early } = written
    const told = typeof early === 'string' ? (JSON.parse(early) as JobSnapshot) : undefined
    if (told && (told.terminal || told.readAt > next.readAt)) return { next: (await write(key, told, next)).next, answers }
    return { next, answers }
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
  function readNow(key: JobKey, previous: JobSnapshot | undefined, claimed?: boolean, withWrite?: WithWrite): Promise<Read> {
    const id = name(key)
    const claim = keys.reading(key)
    const reading = inFlight.get(id)
    if (reading && claimed) letGo(claim) // a read here outlived its claim: ours is not needed
    // Another's read, shared: its `withWrite` answers are not this caller's.
    if (reading) return reading.then(({ snapshot }) => ({ snapshot }))
    const mine = (async (): Promise<Read> => {
      if (!(claimed ?? (await store.claim(claim, options.readMs)))) {
        const heard = await winnersNews({ store, channel, options }, key, previous, claim)
        if (heard) return { snapshot: heard }
      }
      let released = false
      try {
        const snapshot = await readService(key)
        if (!ok(snapshot)) return { snapshot } // only a job's own answer is shared; a refusal or a failure is read again next time
        released = true // with the write, in one trip; the new files' holds beside it, each on its file's tag (keys.ts)
        const added = withWrite?.(snapshot) ?? [], holding = togetherByTag(store, added)
        const writing = put(key, snapshot, previous, [{ op: 'release', key: claim }])
        // A running job's answer over a snapshot kept, with nothing to hold, needs nothing the write
        // answers: it goes a round trip sooner. An end waits (the first end written wins), as do new
        // files' holds and a job's first snapshot (it takes a webhook that came before it).
        if (!snapshot.terminal && added.length === 0 && previous) {
          writing.catch((error: unknown) => options.report(`a job's status could not be kept: ${error instanceof Error ? error.message : String(error)}`))
          return { snapshot }
        }
        const [{ next }, holds] = await Promise.all([writing, holding])
        return { snapshot: next, added: holds }
      } finally {
        if (!released) await store.release(claim).catch(() => {})
      }
    })().finally(() => inFlight.delete(id))
    inFlight.set(id, mine)
    return mine
  }

  const watcher = { store, instance, options, kept, readNow: async (key: JobKey, previous?: JobSnapshot) => (await readNow(key, previous)).snapshot, watched: channel.watched, tell }

  return {
    put: async (...args: Parameters<typeof put>) => (await put(...args)).next,
    putWebhook,

    /**
     * The job's status, from the store when it is current enough, else from the service; and the
     * text at `alsoKey`, read in the same trip to the store. A read that reaches the service writes
     * its answer with `withWrite`'s operations (given the text at `alsoKey` too): `added`, what they answered.
     */
    async read(
      key: JobKey,
      alsoKey?: string,
      withWrite?: (snapshot: JobSnapshot, also: string | undefined) => readonly StoreOperation[],
    ): Promise<{ snapshot: JobSnapshot; also: string | undefined; added?: unknown[] }> {
      const id = name(key)
      const claim = keys.reading(key)
      // The claim a read of the service needs comes in the same trip, unless the job was current here
      // lately (then a read is unlikely); one not needed is given back at once.
      const get = (key: string): StoreOperation => ({ op: 'get', key })
      const operations = [get(statusKey(key)), get(keys.lease(key)), ...(alsoKey === undefined ? [] : [get(alsoKey)])]
      const claiming = !((currentUntil.get(id) ?? 0) > Date.now())
      if (claiming) operations.push({ op: 'claim', key: claim, ttlMs: options.readMs })
      const results = await together(store, operations)
      const [text, lease, also] = [results[0], results[1], alsoKey === undefined ? undefined : results[2]] as [string?, string?, string?]
      const claimed = claiming ? results.at(-1) === true : undefined
      const snapshot = parsed(text)
      const answer = (snapshot: JobSnapshot) => {
        if (ok(snapshot)) noteCurrent(id, snapshot)
        return { snapshot, also }
      }
      // Current, or kept current by a watcher (its lease): no need to read.
      if (snapshot && (Date.now() < servedUntil(snapshot, options) || (snapshot.readAt > 0 && lease))) {
        if (claimed) letGo(claim)
        return answer(snapshot)
      }
      const { snapshot: read, added } = await readNow(key, snapshot, claimed, withWrite && ((answer) => withWrite(answer, also)))
      return { ...answer(read), added }
    },

    /** The job's snapshot as kept, if any. */
    current: kept,

    /**
     * Tells `listener` of every new snapshot of the job (and, once listening, of the one kept, if
     * any) until the returned function is called; while anyone here listens, the job is watched.
     */
    async watch(key: JobKey, listener: (snapshot: JobSnapshot) => void): Promise<() => void> {
      const [release, listening] = [await channel.hold(key), channel.listen(key, listener)]
      const [first, stop] = [listening.first, () => (listening.stop(), release())]
      const snapshot = parsed(await keptTogether(statusKey(key)).catch((error: unknown) => {
        stop()
        throw error
      }))
      // The creation's answer too: a page that did not create the job has nothing else.
      if (snapshot) listener(snapshot)
      if (first) void watchLoop(watcher, key, snapshot)
      return stop
    },
  }
}

export type JobStatus = ReturnType<typeof createJobStatus>
