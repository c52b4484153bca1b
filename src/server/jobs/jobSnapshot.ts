import { defaultInterpretation, isTerminal } from '../../tools/index.js'
import { hashText } from '../../tools/internal.js'

/** A job as the service last told of it (a read's answer or a webhook): one for every user and instance, before any per-user rewriting. */
export interface JobSnapshot {
  /** The service's HTTP status. */
  status: number
  /** The service's body, as text. */
  body: string
  /** The service's headers that mean something to the browser (`x-request-id`, `retry-after`). */
  headers: Record<string, string>
  /** When it was read (ms since the epoch); 0 for the creation's answer, which no read has confirmed yet. */
  readAt: number
  /** The job has ended: its snapshot never changes. */
  terminal: boolean
  /** When the job was first known (its creation, as far as the proxy saw it): its age sets the pace of reads. */
  since?: number
}

export interface JobStatusOptions {
  /** How long a snapshot of a running job is served without reading again, when nobody watches the job. */
  freshMs: number
  /** How long one read of the service may take, its write included: a read's claim lasts that long (it goes with the answer). */
  readMs: number
  /** How long a finished job's snapshot is kept. */
  keepMs: number
  /** How long a watcher's lease lasts unless renewed; another instance takes over after it. */
  leaseMs: number
  /** The service sends webhooks: a watcher waits this long for one before reading the job itself. */
  webhookQuietMs?: number
  /** Whether a delivery that may have been the service's was refused lately: then jobs are read as with no webhooks. */
  webhooksMissed?: () => boolean
  /** Tells the partner of a watcher's failed read, and of a read's answer the store could not keep. */
  report: (message: string) => void
}

/** The service answered with the job itself (2xx), not a refusal or a failure. */
export const succeeded = (snapshot: Pick<JobSnapshot, 'status'>) => snapshot.status >= 200 && snapshot.status < 300

/** A job's identity in the store: its tool's path and the service's id. */
export interface JobKey {
  toolPath: string
  jobId: string
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

/** A short name of what a snapshot says: two snapshots with the same status and body are one version. */
export const versionOf = (snapshot: Pick<JobSnapshot, 'status' | 'body'>) => hashText(`${snapshot.status}\n${snapshot.body}`)

/** A job's name in the store and on the channel. */
export const jobName = ({ toolPath, jobId }: JobKey) => `${toolPath}:${jobId}`

/**
 * Until when a read may answer with a snapshot without reading the service: while it is fresh,
 * forever once the job has ended, and with webhooks until they fall quiet (the creation's answer too).
 */
export function servedUntil(snapshot: JobSnapshot, options: Pick<JobStatusOptions, 'freshMs' | 'webhookQuietMs' | 'webhooksMissed'>): number {
  if (snapshot.readAt > 0 && snapshot.terminal) return Infinity
  const fresh = snapshot.readAt > 0 ? snapshot.readAt + options.freshMs : 0
  const quiet = webhookQuiet(options)
  return Math.max(fresh, quiet === undefined ? 0 : (snapshot.readAt || snapshot.since || 0) + quiet)
}

/** How long webhooks may fall quiet before a job is read: none without them, nor while one may have been refused. */
export const webhookQuiet = ({ webhookQuietMs, webhooksMissed }: Pick<JobStatusOptions, 'webhookQuietMs' | 'webhooksMissed'>) =>
  webhooksMissed?.() ? undefined : webhookQuietMs
