/** A hidden page polls twice a minute at most. */
const HIDDEN_POLL = 30_000

/**
 * Polls slow as a job ages: a tenth of its age, from a third of `pollInterval` up to 10/3 of it
 * (1 s to 10 s by default). The end is seen within max(1 s, 10% of the job's time), never more
 * than 10 s late, in under 100 reads for a 10-minute job.
 */
export function pollDelay(age: number, base: number, hidden: boolean): number {
  const delay = Math.min((base * 10) / 3, Math.max(base / 3, age / 10))
  return hidden ? Math.max(delay, HIDDEN_POLL) : delay
}
