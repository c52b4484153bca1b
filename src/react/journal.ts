// The journal lives in the run core (src/client/runs); here it is typed by the catalogue's tools.
import type { JournalStore } from '../tools/index.js'
import { defaultStore as anyDefault, memoryJournal as anyMemory } from '../tools/internal.js'

export { createJournal, journalStore } from '../tools/internal.js'
export type { Journal } from '../tools/internal.js'
export type { JournalStore, Run, RunPhase, WebStorage } from '../tools/index.js'

/** Runs kept in this page's memory: they survive unmounts, not reloads. */
export const memoryJournal = () => anyMemory() as JournalStore

/** localStorage in a browser; memory elsewhere (a server must not share one journal between users). */
export const defaultStore = () => anyDefault() as JournalStore
