import type { Journal, JournalProblem, Run } from './journal.js'

/** How many unfinished runs a client's journal keeps per key (and person), and for how long. */
export interface JournalLimits {
  /** Unfinished runs kept, newest first; older ones are dropped. Default 50. */
  maxRuns?: number
  /**
   * How long an unfinished run is kept after it was first journaled, in ms. Default 24 hours:
   * the spec does not say how long the service remembers an Idempotency-Key.
   */
  maxAgeMs?: number
}

/**
 * A client's journal, bounded: of one key's runs it lists those of tools it knows (another's are
 * left in place, told of once) and drops unfinished runs past `maxAgeMs` or beyond `maxRuns`,
 * oldest first, telling each. `list(print, room)` leaves `room` places for runs about to be written.
 */
export function boundedJournal(
  journal: Journal,
  { maxRuns = 50, maxAgeMs = 86_400_000 }: JournalLimits = {},
  report: (problem: JournalProblem) => void,
  knows: (tool: string) => boolean,
): Journal {
  const told = new Set<string>()
  return {
    ...journal,
    async list(fingerprint, room = 0) {
      const kept: Run[] = []
      const now = Date.now()
      let unfinished = 0
      for (const run of await journal.list(fingerprint)) {
        if (!knows(run.tool)) {
          if (!told.has(run.id)) report({ reason: 'unknown-tool', run })
          told.add(run.id)
          continue
        }
        const reason = run.seen ? undefined : now - run.createdAt > maxAgeMs ? 'expired' : ++unfinished > maxRuns - room ? 'over-limit' : undefined
        if (!reason) {
          kept.push(run)
          continue
        }
        await journal.drop(run)
        report({ reason, run })
      }
      return kept
    },
  }
}
