import type { JobPhase } from '../definition.js'

/** Where a run stands: its POST not yet answered (`submitting`), or its job's phase. */
export type RunPhase = 'submitting' | JobPhase

/**
 * One paid intent, journaled before its POST leaves: enough to find its job again after a
 * reload, an unmount, a crash or a key change. Never the key, never a file's bytes.
 */
export interface Run<T extends string = string> {
  id: string
  tool: T
  /** Stands for the key that created it; one key's runs never show under another. */
  fingerprint: string
  /** The `tag` of the `useTool` that started it, if any: tells two widgets of one tool apart. */
  tag?: string
  /** @deprecated Journaled by 0.1 for `tag`; read as `tag`, never written. */
  scope?: string
  /** Sent with every try of this intent, so a repeat replays rather than bills again. */
  idempotencyKey: string
  /** The JSON part of the input (a file tool's options, without the file). */
  input: Record<string, unknown>
  /** A file tool's file, described: it must be chosen again if the upload was cut. */
  file?: { name: string; type: string; size: number }
  jobId?: string
  /** Its POST was answered as a replay of an earlier one with its key: not billed again. */
  replayed?: true
  phase: RunPhase
  /** Its end was shown, or it was set aside with `reset()`: only runs not seen are resumed on mount. */
  seen?: boolean
  /** When the run was first journaled (ms since the epoch): its start, across reloads. */
  createdAt: number
  updatedAt: number
}

type MaybePromise<T> = T | Promise<T>

/** Any key–value store, sync or async: localStorage-like, IndexedDB, a server. */
export interface JournalStore<T extends string = string> {
  get(key: string): MaybePromise<Run<T> | null | undefined>
  set(key: string, run: Run<T>): MaybePromise<void>
  remove(key: string): MaybePromise<void>
  keys(): MaybePromise<Iterable<string>>
}

/** The Web Storage shape (`localStorage`, `sessionStorage`, or a file-backed one in Node). */
export interface WebStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
  key(index: number): string | null
  readonly length: number
}

const PREFIX = '@cabinet/tools-react:run:'
/** Seen runs kept per key for `useRuns`; older ones are pruned. */
const KEEP = 20

/** Runs kept in this process's memory: they survive unmounts, not reloads. */
export function memoryJournal(): JournalStore {
  const runs = new Map<string, Run>()
  return {
    get: (key) => runs.get(key),
    set: (key, run) => void runs.set(key, run),
    remove: (key) => void runs.delete(key),
    keys: () => runs.keys(),
  }
}

/** A Web Storage as a journal store: each run one JSON item. */
export function webStorageJournal(storage: WebStorage): JournalStore {
  return {
    get: (key) => JSON.parse(storage.getItem(key) ?? 'null') as Run | null,
    set: (key, run) => storage.setItem(key, JSON.stringify(run)),
    remove: (key) => storage.removeItem(key),
    keys: () => Array.from({ length: storage.length }, (_, index) => storage.key(index)).filter((key) => key !== null),
  }
}

/** Either shape a partner may hand over, as a journal store. */
export function journalStore<T extends string = string>(store: JournalStore<T> | WebStorage): JournalStore<T> {
  return 'getItem' in store ? (webStorageJournal(store) as JournalStore<T>) : store
}

/** localStorage in a browser; memory elsewhere (a server must not share one journal between users). */
export function defaultStore(): JournalStore {
  try {
    const storage = (globalThis as { window?: { localStorage?: WebStorage } }).window?.localStorage
    if (storage) return webStorageJournal(storage)
  } catch {
    // Storage denied (privacy settings): memory still survives unmounts.
  }
  return memoryJournal()
}

/**
 * Why a journal entry was set aside rather than listed (`onJournalError`): unreadable
 * (`malformed`: not JSON, or a read that threw), not a run (`foreign`), for a tool this client
 * does not know (`unknown-tool`), left unfinished past `maxAgeMs` (`expired`) or beyond
 * `maxRuns` (`over-limit`), or a store that could not be read at all (`unavailable`).
 */
export interface JournalProblem<T extends string = string> {
  reason: 'malformed' | 'foreign' | 'unknown-tool' | 'expired' | 'over-limit' | 'unavailable'
  /** The entry's key in the store, where there is one. */
  key?: string
  /** The run, where it could be read (an expired or dropped one: its job may still be waited for). */
  run?: Run<T>
  cause?: unknown
}

export interface Journal<T extends string = string> {
  /**
   * One key's runs, newest first: an entry that cannot be read or is not a run is removed and
   * reported, never thrown. `room`: places to leave under a bounded journal's `maxRuns`.
   */
  list(fingerprint: string, room?: number): Promise<Run<T>[]>
  put(run: Run<T>): Promise<void>
  drop(run: Run<T>): Promise<void>
  /** Removes every run whose fingerprint is one of a person's (`belongsTo`), whatever key made it. */
  forget(whose: (fingerprint: string) => boolean): Promise<void>
  /** Called after every change; returns the unsubscribe. */
  subscribe(listener: () => void): () => void
}

/** A journal over a store (`null` keeps nothing); `onError` hears of each entry set aside. */
export function createJournal<T extends string = string>(store: JournalStore<T> | null, onError?: (problem: JournalProblem) => void): Journal<T> {
  const listeners = new Set<() => void>()
  const changed = () => listeners.forEach((listener) => listener())
  const keyOf = (run: Pick<Run, 'fingerprint' | 'id'>) => `${PREFIX}${run.fingerprint}/${run.id}`
  // Runs forgotten at a sign-out: a hook still following one (its next poll) never writes it back.
  const forgotten = new Set<string>()
  return {
    async list(fingerprint) {
      const runs: Run<T>[] = []
      for (const key of store ? [...(await store.keys())] : []) {
        if (!key.startsWith(`${PREFIX}${fingerprint}/`)) continue
        // Not JSON (a torn write) is 0: that, or what is no run of this key, is set aside and told of.
        const run = await Promise.resolve(key).then((at) => store!.get(at)).catch(() => 0 as const)
        if (run && run.fingerprint === fingerprint && run.createdAt > 0 && run.idempotencyKey) runs.push(run)
        else if (run != null) {
          onError?.({ reason: run === 0 ? 'malformed' : 'foreign', key })
          await store!.remove(key)
        }
      }
      runs.sort((a, b) => b.createdAt - a.createdAt)
      const stale = runs.filter((run) => run.seen).slice(KEEP)
      for (const run of stale) await store!.remove(keyOf(run))
      return runs.filter((run) => !stale.includes(run))
    },
    async put(run) {
      if (forgotten.has(keyOf(run))) return
      await store?.set(keyOf(run), run)
      changed()
    },
    async drop(run) {
      await store?.remove(keyOf(run))
      changed()
    },
    async forget(whose) {
      for (const key of store ? [...(await store.keys())] : []) {
        if (!key.startsWith(PREFIX) || !whose(key.slice(PREFIX.length, key.lastIndexOf('/')))) continue
        forgotten.add(key)
        await store!.remove(key)
      }
      changed()
    },
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}
