import { JOBS_CHANNEL } from '../keys.js'
import { jobName, type JobKey, type JobSnapshot } from './jobSnapshot.js'
import type { ProxyStore } from '../stores/store.js'
import { thrownText } from '../partnerHooks.js'

type Listener = (snapshot: JobSnapshot) => void

/**
 * The jobs channel as one instance hears it: one subscription, fanned out to the pages watching
 * each job here and to the reads waiting on another instance's read of it.
 */
export function createJobChannel(store: ProxyStore, kept: (key: JobKey) => Promise<JobSnapshot | undefined>, report: (message: string) => void) {
  const listeners = new Map<string, { key: JobKey; each: Set<Listener> }>()
  const awaiting = new Map<string, Set<Listener>>()
  let subscription: Promise<() => Promise<void>> | undefined

  const tell = (id: string, snapshot: JobSnapshot) => {
    for (const listener of listeners.get(id)?.each ?? []) listener(snapshot)
    for (const waiter of awaiting.get(id) ?? []) waiter(snapshot)
  }
  const subscribe = () =>
    (subscription ??= store
      .subscribe(JOBS_CHANNEL, {
        message(message) {
          const { key, snapshot } = JSON.parse(message) as { key: JobKey; snapshot: JobSnapshot }
          tell(jobName(key), snapshot)
        },
        missed() {
          for (const [id, { key }] of listeners) {
            kept(key).then(
              (snapshot) => snapshot && snapshot.readAt > 0 && tell(id, snapshot),
              (error: unknown) => report(`a job's status could not be read again: ${thrownText(error)}`),
            )
          }
        },
      })
      .catch((error: unknown) => {
        subscription = undefined
        throw error
      }))

  return {
    subscribe,
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
    },
  }
}
