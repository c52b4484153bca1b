import { jobChannelOf, keys } from './keys.js'
import { type JobKey, type JobSnapshot } from './jobSnapshot.js'
import { together, type ProxyStore, type StoreOperation } from './stores/store.js'

/**
 * How a job's snapshot is written, kept `keepMs`: the first end written wins and every later write
 * gives way to it; news is published to every instance. `also` goes in the same trip to the store.
 */
export function jobWriter(store: ProxyStore, keepMs: number) {
  const news = (key: JobKey, text: string): StoreOperation => ({ op: 'publish', channel: jobChannelOf(key), message: `{"key":${JSON.stringify(key)},"snapshot":${text}}` })

  /**
   * A new job's first snapshot (running), written unless the store holds one, in one trip: a
   * replayed creation's job may have moved on, and an end written first stays. `first` goes with it
   * only when it is written, `also` in any case. Answers the snapshot kept, what `first` answered
   * (skipped: undefined) and what `also` answered.
   */
  async function writeNew(key: JobKey, snapshot: JobSnapshot, first: readonly StoreOperation[], also: readonly StoreOperation[]) {
    const text = JSON.stringify(snapshot)
    const statusKey = keys.status(key)
    const [kept, ended, ...rest] = await together(store, [
      { op: 'get', key: statusKey },
      { op: 'get', key: keys.ended(key) },
      ...[{ op: 'set', key: statusKey, value: text, ttlMs: keepMs } as const, news(key, text), ...first].map((operation) => ({ ...operation, unless: 0 })),
      ...also,
    ])
    const answers = { first: rest.slice(2, 2 + first.length), also: rest.slice(2 + first.length) }
    if (kept) return { next: JSON.parse(kept) as JobSnapshot, ...answers }
    if (!ended) return { next: snapshot, ...answers }
    await store.set(statusKey, ended, keepMs)
    return { next: JSON.parse(ended) as JobSnapshot, ...answers }
  }

  /** Writes a snapshot over `before`: the snapshot kept now, and what `also` answered. */
  async function write(key: JobKey, snapshot: JobSnapshot, before: JobSnapshot | undefined, also: readonly StoreOperation[] = []) {
    if (before?.terminal) return { next: before, answers: await together(store, also) }
    const next = { ...snapshot, since: before?.since ?? snapshot.since ?? snapshot.readAt }
    const text = JSON.stringify(next)
    // News only when the status or the body changed (what `versionOf` names), the snapshot's text not written twice.
    const changed = !before || before.status !== next.status || before.body !== next.body
    const publish: StoreOperation[] = changed ? [news(key, text)] : []
    const statusKey = keys.status(key)
    const endedKey = keys.ended(key)
    if (next.terminal) {
      // The first end written wins, atomically: it is what every later write gives way to.
      const [ended, ...answers] = await together(store, [{ op: 'hold', key: endedKey, value: text, ttlMs: keepMs }, ...also])
      await together(store, [{ op: 'set', key: statusKey, value: ended, ttlMs: keepMs }, ...(ended === text ? publish : [])])
      return { next: ended === text ? next : (JSON.parse(ended) as JobSnapshot), answers }
    }
    // Written only where no end is: one atomic step on a store with `batch`, so a reader never sees
    // the job step back, even for a moment.
    const [ended, , ...rest] = await together(store, [
      { op: 'get', key: endedKey },
      ...[{ op: 'set', key: statusKey, value: text, ttlMs: keepMs } as const, ...publish].map((operation) => ({ ...operation, unless: 0 })),
      ...also,
    ])
    const answers = rest.slice(publish.length)
    if (ended) return { next: JSON.parse(ended) as JobSnapshot, answers }
    // One operation at a time (no `batch`): an end may have landed between the two; it is put back.
    const late = store.batch ? undefined : await store.get(endedKey)
    if (late === undefined) return { next, answers }
    await store.set(statusKey, late, keepMs)
    return { next: JSON.parse(late) as JobSnapshot, answers }
  }
  return { write, writeNew }
}
