import { jobChannelOf } from '../keys.js'
import { jobName, type JobKey, type JobSnapshot } from './jobSnapshot.js'
import type { ProxyStore } from '../stores/store.js'
import { thrownText } from '../partnerHooks.js'

type Listener = (snapshot: JobSnapshot) => void

/**
 * Jobs' channels as one instance hears them: each job's channel (on its keys' shard, in a cluster)
 * is listened to while anyone here needs it, one subscription fanned out to the pages watching
 * the job here and to the reads waiting on another instance's read of it.
 */
export function createJobChannel(
  store: ProxyStore,
  kept: (key: JobKey) => Promise<JobSnapshot | undefined>,
  report: (message: string) => void,
  recall: (key: JobKey) => Promise<void>,
) {
  const listeners = new Map<string, { key: JobKey; each: Set<Listener> }>()
  const awaiting = new Map<string, Set<Listener>>()

  const tell = (id: string, snapshot: JobSnapshot) => {
    for (const listener of listeners.get(id)?.each ?? []) listener(snapshot)
    for (const waiter of awaiting.get(id) ?? []) waiter(snapshot)
  }
  const subscribeTo = (key: JobKey, id: string) =>
    store.subscribe(jobChannelOf(key), {
      message(message) {
        tell(id, (JSON.parse(message) as { snapshot: JobSnapshot }).snapshot)
      },
      missed() {
        if (!listeners.has(id)) return
        // None kept: the store came back empty; what webhooks need of the job is written again.
        kept(key)
          .then((snapshot) => (snapshot ? void (snapshot.readAt > 0 && tell(id, snapshot)) : recall(key)))
          .catch((error: unknown) => report(`a job's status could not be read again: ${thrownText(error)}`))
      },
    })

  const hold = shared((key: JobKey) => subscribeTo(key, jobName(key)))

  return {
    hold,
    tell,
    /** Whether pages here listen to the job. */
    watched: (id: string) => listeners.has(id),

    /** Adds a page's listener of a job; `first` when nobody here listened before. */
    listen(key: JobKey, listener: Listener): { first: boolean; stop: () => void } {
      const id = jobName(key)
      let entry = listeners.get(id)
      const first = !entry
      if (!entry) listeners.set(id, (entry = { key, each: new Set() }))
      entry.each.add(listener)
      const stop = () => {
        entry.each.delete(listener)
        if (entry.each.size === 0 && listeners.get(id) === entry) listeners.delete(id)
      }
      return { first, stop }
    },

    /** A snapshot of the job newer than `previous`, published or kept within `ms`, or undefined. */
    async newerWithin(key: JobKey, previous: JobSnapshot | undefined, ms: number): Promise<JobSnapshot | undefined> {
      const id = jobName(key)
      const release = await hold(key)
      return new Promise((resolve) => {
        const done = (snapshot: JobSnapshot | undefined) => {
          clearTimeout(timer)
          awaiting.get(id)?.delete(done)
          if (awaiting.get(id)?.size === 0) awaiting.delete(id)
          release()
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
    },
  }
}

/**
 * `subscribe` shared by its callers: one subscription per job while anyone holds it. `hold(key)`
 * resolves once listening, with a function that lets go (each caller once; the last stops it).
 */
function shared(subscribe: (key: JobKey) => Promise<() => Promise<void>>) {
  const subscriptions = new Map<string, { users: number; stop: Promise<() => Promise<void>> }>()
  return async (key: JobKey): Promise<() => void> => {
    const id = jobName(key)
    let entry = subscriptions.get(id)
    if (!entry) {
      const made = { users: 0, stop: subscribe(key) }
      // A subscription that failed is tried afresh next time, not left half made.
      made.stop.catch(() => subscriptions.get(id) === made && subscriptions.delete(id))
      subscriptions.set(id, (entry = made))
    }
    const held = entry
    held.users++
    let released = false
    const release = () => {
      if (released) return
      released = true
      if (--held.users > 0 || subscriptions.get(id) !== held) return
      subscriptions.delete(id)
      held.stop.then((stop) => stop()).catch(() => {})
    }
    try {
      await held.stop
    } catch (error) {
      release()
      throw error
    }
    return release
  }
}
