import type { CallOptions, Job, ToolDefinition } from './definition.js'
import { issue, validationError } from './errors.js'
import type { JobReader } from './follow.js'
import type { PageStream } from './pageStream.js'
import { asRecord } from './record.js'
import { malformed, readBody, requestIdOf } from './response.js'
import type { Send } from './send.js'
import type { ClientSettings } from './settings.js'

/** Reading a job: one free GET, or a pushed read, made a Job with its phase and result links. */
export function createJobReader(
  { settings, stream, send }: { settings: ClientSettings; stream: PageStream; send: Send },
  definition: (id: string) => ToolDefinition,
): JobReader {
  const reader: JobReader = {
    /** A job's tool, its id checked: bad input is refused before any request. */
    jobTool(id, jobId) {
      const tool = definition(id)
      if (typeof jobId !== 'string' || jobId === '') throw validationError([issue('jobId', 'required')], id)
      return tool
    },
    async read(id: string, jobId: string, opts: CallOptions) {
      const tool = reader.jobTool(id, jobId)
      const response = await send(tool, `${settings.base()}${tool.path}/jobs/${encodeURIComponent(jobId)}`, opts)
      stream.offer(response)
      return reader.jobOf(tool, jobId, response.status, await readBody(response))
    },
    jobOf(tool, jobId, httpStatus, body) {
      const { interpret } = settings
      const status = asRecord(body)?.status
      if (typeof status !== 'string') throw malformed(tool, 'no status', body, httpStatus)
      const read = { tool: tool.id, jobId, status, phase: interpret.phase(status), requestId: requestIdOf(body) }
      return { ...read, progress: interpret.progress(body), data: body, artifacts: linksIn(settings, body) } as Job
    },
  }
  return reader
}

/** Every result link in a body: URLs under `{baseUrl}/artifacts/`, as `interpret.artifacts` finds them. */
export const linksIn = (settings: ClientSettings, body: unknown) => settings.interpret.artifacts(body, `${settings.base()}/artifacts/`)
