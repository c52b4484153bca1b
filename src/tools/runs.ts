import type { Journal as AnyJournal, JournalStore as AnyJournalStore, Run as AnyRun } from '../client/index.js'
import type { ToolId } from './catalogue.js'

/** One journaled run of a catalogue tool (see `Run` in the client for its fields). */
export type Run = AnyRun<ToolId>

/** Where runs of the catalogue's tools are kept: any key–value store, sync or async. */
export type JournalStore = AnyJournalStore<ToolId>

/** A journal of the catalogue's runs. */
export type Journal = AnyJournal<ToolId>
