import { defaultInterpretation, isTerminal } from '../tools/index.js'
import type { ProxyStore } from './store.js'

/** A job as the service last answered a read of it: one for every user and instance, before any per-user rewriting. */
export interface JobSnapshot {
  /** The service's HTTP status. */
  status: number
  /** The service's body, as text. */
  body: string
  /** The service's headers that mean something to the browser (`x-request-id`, `retry-after`). */
  headers: Record<string, string>
  /** When it was read (ms since the epoch). */
  readAt: number
  /** The job has ended: its snapshot never changes. */
  terminal: boolean
}

export interface JobStatusOptions {
  /** How long a snapshot of a running job is served without reading again. */
  freshMs: number
  /** How long a finished job's snapshot is kept. */
  keepMs: number
}

/** Whether a job body says the job has ended (the spec's `status` field, read as the client reads it). */
export function endedIn(body: string): boolean {
  try {
    const status = (JSON.parse(body) as { status?: unknown } | null)?.status
    return typeof status === 'string' && isTerminal(defaultInterpretation.phase(status))
  } catch {
    return false
  }
}

/**
 * Job reads, shared: every read of one job within `freshMs` is answered from one snapshot kept in
 * the store (so across instances), concurrent reads in one process share one request to the
 * service, and a finished job is never read again while its snapshot is kept. A flood of reads
 * from one user therefore costs the service at most one read per job per `freshMs`.
 */
export function createJobStatus(store: ProxyStore, readService: (toolPath: string, jobId: string) => Promise<JobSnapshot>, options: JobStatusOptions) {
  const inFlight = new Map<string, Promise<JobSnapshot>>()
  return {
    async read(toolPath: string, jobId: string): Promise<JobSnapshot> {
      const key = `status:${toolPath}:${jobId}`
      const kept = await store.get(key)
      if (kept) {
        const snapshot = JSON.parse(kept) as JobSnapshot
        if (snapshot.terminal || Date.now() - snapshot.readAt < options.freshMs) return snapshot
      }
      let reading = inFlight.get(key)
      if (!reading) {
        reading = readService(toolPath, jobId)
          .then(async (snapshot) => {
            // Only a job's own answer is shared; a refusal or a failure is read again next time.
            if (snapshot.status >= 200 && snapshot.status < 300) {
              await store.set(key, JSON.stringify(snapshot), snapshot.terminal ? options.keepMs : options.freshMs)
            }
            return snapshot
          })
          .finally(() => inFlight.delete(key))
        inFlight.set(key, reading)
      }
      return reading
    },
  }
}
