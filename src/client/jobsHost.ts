import type { ToolDefinition } from './definition.js'
import type { ToolsError } from './errors.js'
import type { Interpretation } from './interpret.js'
import type { SenderHost } from './senderHost.js'
import type { ClientSettings } from './settings.js'

/**
 * What the jobs' chunk (jobs.ts, and the reader and follower it brings) receives of the first load
 * when it is created, rather than importing it, for the reason SenderHost gives. Declared here, for
 * this boundary alone; the first load's chunkKit implements it. Importing instead costs what
 * SenderHost says (the two were measured together).
 */
export interface JobsHost extends Pick<SenderHost, 'ToolsError' | 'pagePresence' | 'readBody' | 'requestIdOf' | 'sleep'> {
  /** The error a failed job settles as (kind `job-failed`), explained as `interpret` reads its body. */
  jobFailedError(job: { tool: string; jobId?: string; requestId?: string; data: unknown }, interpret?: Pick<Interpretation, 'errorMessage'>): ToolsError
  asRecord(value: unknown): Record<string, unknown> | undefined
  /** The result links of a job's body, on the service's origin. */
  linksIn(settings: ClientSettings, body: unknown): string[]
  /** A `server` error for an answer that is not what the spec says. */
  malformed(tool: ToolDefinition, what: string, body: unknown, status: number): ToolsError
}
