import type { CallOptions, Job } from './definition.js'
import type { JobReader } from './follow.js'
import type { JobsHost } from './jobsHost.js'
import type { PageStream } from './pageStream.js'
import type { Send } from './send.js'
import type { ClientSettings } from './settings.js'

/** Reading a job: one free GET, or a pushed read, made a Job with its phase and result links. */
export function createJobReader(
  { settings, stream, send, kit }: { settings: ClientSettings; stream: PageStream; send: Send; kit: JobsHost },
  jobTool: JobReader['jobTool'],
): JobReader {
  const { asRecord, linksIn, malformed, readBody, requestIdOf } = kit
  const reader: JobReader = {
    jobTool,
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
      // A queued job has done nothing yet: no figure, whatever its body says, so a bar shows no "0%".
      const progress = read.phase === 'pending' ? undefined : interpret.progress(body)
      return { ...read, ...(progress === undefined ? {} : { progress }), data: body, artifacts: linksIn(settings, body) } as Job
    },
  }
  return reader
}
