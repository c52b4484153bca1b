import type { createJobChannel } from './jobChannel.js'
import { winnersNews } from './jobClaim.js'
import type { JobKeeper } from './jobKeep.js'
import { jobName, servedUntil, succeeded as ok, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'
import { keys } from '../keys.js'
import { togetherByTag, type ProxyStore, type StoreOperation } from '../stores/store.js'

/** What a read that reaches the service adds to the store's write of its answer (one trip for both), given the answer. */
export type WithWrite = (snapshot: JobSnapshot) => readonly StoreOperation[]
/** A read's snapshot, and what its `WithWrite` operations answered when they went with the write. */
export interface Read {
  snapshot: JobSnapshot
  added?: unknown[]
}

interface ServiceReads {
  store: ProxyStore
  channel: ReturnType<typeof createJobChannel>
  options: JobStatusOptions
  readService: (key: JobKey) => Promise<JobSnapshot>
  put: JobKeeper['put']
}

/** Gives a claim back without waiting: whoever wants it next finds it free a round trip later. */
export const letGo = (store: ProxyStore, claim: string) => void store.release(claim).catch(() => {})

/** Until when each job was current as this instance last saw it: a hint (a read is unlikely), never a reason to answer. */
export function currentLately(options: Pick<JobStatusOptions, 'freshMs' | 'webhookQuietMs' | 'webhooksMissed'>) {
  const currentUntil = new Map<string, number>()
  return {
    current: (id: string) => (currentUntil.get(id) ?? 0) > Date.now(),
    note(id: string, snapshot: JobSnapshot) {
      if (currentUntil.size >= 10_000) currentUntil.clear()
      currentUntil.set(id, servedUntil(snapshot, options))
    },
  }
}

/** Reads of the service, one per job at a time (`readNow`). */
export function serviceReads({ store, channel, options, readService, put }: ServiceReads) {
  const inFlight = new Map<string, Promise<Read>>()
  const name = jobName

  /**
   * One read of the service per job at a time, in this process and across instances (a claim in
   * the store: who loses it waits for the winner's answer on the channel); a job's answer is kept
   * and published.
   */
  return function readNow(key: JobKey, previous: JobSnapshot | undefined, claimed?: boolean, withWrite?: WithWrite): Promise<Read> {
    const id = name(key)
    const claim = keys.reading(key)
    const reading = inFlight.get(id)
    if (reading && claimed) letGo(store, claim) // a read here outlived its claim: ours is not needed
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
}
