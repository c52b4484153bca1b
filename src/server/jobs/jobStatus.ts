import { batchedGets } from './batchedGets.js'
import { createJobChannel } from './jobChannel.js'
import { jobKeeper } from './jobKeep.js'
import { currentLately, letGo, serviceReads } from './jobRead.js'
import { jobName, servedUntil, succeeded as ok, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'
import { watchLoop } from './jobWatch.js'
import { keys } from '../keys.js'
import { together, type ProxyStore, type StoreOperation } from '../stores/store.js'
export { endedIn, versionOf, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'

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
  const name = jobName
  const statusKey = (key: JobKey) => keys.status(key)
  const parsed = (text: string | undefined) => (text ? (JSON.parse(text) as JobSnapshot) : undefined)
  const kept = async (key: JobKey) => parsed(await store.get(statusKey(key)))
  const keptTogether = batchedGets(store) // the snapshots a stream asks for as it opens: one trip for all

  const keeper = jobKeeper(store, options, kept)
  const { put, putWebhook } = keeper
  const channel = createJobChannel(store, kept, options.report, keeper.recall)
  const lately = currentLately(options)
  const { tell } = channel
  const readNow = serviceReads({ store, channel, options, readService, put })

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
      const claiming = !lately.current(id)
      if (claiming) operations.push({ op: 'claim', key: claim, ttlMs: options.readMs })
      const results = await together(store, operations)
      const [text, lease, also] = [results[0], results[1], alsoKey === undefined ? undefined : results[2]] as [string?, string?, string?]
      const claimed = claiming ? results.at(-1) === true : undefined
      const snapshot = parsed(text)
      const answer = (snapshot: JobSnapshot) => {
        if (ok(snapshot)) lately.note(id, snapshot)
        return { snapshot, also }
      }
      // Current, or kept current by a watcher (its lease): no need to read.
      if (snapshot && (Date.now() < servedUntil(snapshot, options) || (snapshot.readAt > 0 && lease))) {
        if (claimed) letGo(store, claim)
        return answer(snapshot)
      }
      const { snapshot: read, added } = await readNow(key, snapshot, claimed, withWrite && ((answer) => withWrite(answer, also)))
      return { ...answer(read), added }
    },

    /** The job's snapshot as kept, if any. */
    current: kept,

    /**
     * Tells `listener` of every new snapshot of the job (and, once listening, of the one kept, if
     * any; else of `told`, the creation's snapshot its news carried, whose write is on its way)
     * until the returned function is called; while anyone here listens, the job is watched.
     */
    async watch(key: JobKey, listener: (snapshot: JobSnapshot) => void, told?: JobSnapshot): Promise<() => void> {
      const [release, listening] = [await channel.hold(key), channel.listen(key, listener)]
      const [first, stop] = [listening.first, () => (listening.stop(), release())]
      const stored = parsed(await keptTogether(statusKey(key)).catch((error: unknown) => {
        stop()
        throw error
      }))
      const snapshot = stored ?? told
      // The creation's answer too: a page that did not create the job has nothing else.
      if (snapshot) listener(snapshot)
      if (first) void watchLoop(watcher, key, snapshot)
      return stop
    },
  }
}

export type JobStatus = ReturnType<typeof createJobStatus>
