import { pollDelay } from '../tools/internal.js'
import { jobName, succeeded as ok, webhookQuiet, type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'
import { keys } from './keys.js'
import type { ProxyStore } from './stores/store.js'
import { thrownText } from './partnerHooks.js'

/** What a watcher needs of the job status: the store, the snapshot kept, one shared read, and the pages listening here. */
export interface Watched {
  store: ProxyStore
  /** This instance's name on a lease. */
  instance: string
  options: JobStatusOptions
  kept(key: JobKey): Promise<JobSnapshot | undefined>
  readNow(key: JobKey, previous: JobSnapshot | undefined): Promise<JobSnapshot>
  watched(id: string): boolean
  tell(id: string, snapshot: JobSnapshot): void
}

/**
 * Reads the service for a job while this instance holds its lease and pages here listen. `known`:
 * the job's snapshot as the store held it a moment ago, when the watch began.
 */
export async function watchLoop({ store, instance, options, kept, readNow, watched, tell }: Watched, key: JobKey, known?: JobSnapshot) {
  const id = jobName(key)
  let lastTry = 0
  // Nothing to do before its next read is due: a stream opened and closed at once costs no lease.
  let wait = known && !known.terminal ? Math.min(options.leaseMs / 3, nextRead(options, known, 0, Date.now()).due - Date.now()) : 0
  for (;;) {
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    if (!watched(id)) return
    wait = options.leaseMs / 2
    try {
      const snapshot = await kept(key)
      if (snapshot?.terminal) {
        tell(id, snapshot)
        return
      }
      if (await store.lease(keys.lease(key), instance, options.leaseMs)) {
        const now = Date.now()
        const { pace, due } = nextRead(options, snapshot, lastTry, now)
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
      options.report(`watching a job: ${thrownText(error)}`)
    }
    wait = Math.max(50, wait)
  }
}

/** When a watcher reads a job next: at the client's pace for its age, or, with webhooks, once they fall quiet. */
function nextRead(options: JobStatusOptions, snapshot: JobSnapshot | undefined, lastTry: number, now: number) {
  const age = now - (snapshot?.since ?? now)
  const pace = webhookQuiet(options) ?? pollDelay(age, 3000, false)
  return { pace, due: Math.max(snapshot?.readAt || snapshot?.since || 0, lastTry) + pace }
}
