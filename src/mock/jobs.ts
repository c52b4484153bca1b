import type { DeferredToolId } from '../tools/index.js'
import type { MockJobOutcome } from './types.js'

/** A job of a deferred tool, bound to the key that created it. */
export interface MockJob {
  id: string
  tool: DeferredToolId
  key: string
  account: string
  /** The id of the request that created it. */
  requestId: string
  /** On the service's {@link JobClock}, not the wall clock. */
  createdAt: number
  input: Record<string, unknown>
  /** Chosen at creation, so changing the outcome rule later affects new jobs only. */
  outcome: MockJobOutcome
  durationMs: number
  intermediateStatus: string
  /** Built when the job is first read finished, so its artifacts exist only from then on. */
  result?: Record<string, unknown>
}

/** Where a job stands at `now`. Status follows from elapsed time, so no timers run in the background. */
export function jobStage(job: MockJob, now: number): { status: string; terminal: boolean; progress?: number } {
  const elapsed = now - job.createdAt
  if (elapsed >= job.durationMs) {
    return job.outcome === 'failed' ? { status: 'failed', terminal: true } : { status: job.outcome, terminal: true, progress: 1 }
  }
  if (elapsed < job.durationMs / 3) return { status: 'pending', terminal: false, progress: 0 }
  return { status: job.intermediateStatus, terminal: false, progress: Math.round((elapsed / job.durationMs) * 100) / 100 }
}

/** The time jobs progress by: wall-clock time, except that it stands still while frozen. */
export class JobClock {
  /** Milliseconds spent frozen, and so not counted. */
  private pausedFor = 0
  private frozenAt: number | undefined

  now(): number {
    return (this.frozenAt ?? Date.now()) - this.pausedFor
  }

  get frozen(): boolean {
    return this.frozenAt !== undefined
  }

  freeze(frozen: boolean): void {
    if (frozen && this.frozenAt === undefined) this.frozenAt = Date.now()
    if (!frozen && this.frozenAt !== undefined) {
      this.pausedFor += Date.now() - this.frozenAt
      this.frozenAt = undefined
    }
  }
}
