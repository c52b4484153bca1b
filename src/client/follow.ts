import type { CallOptions, Job, ToolDefinition } from './definition.js'
import type { JobWatcher } from './events.js'
import type { JobsHost } from './jobsHost.js'
import type { PageStream } from './pageStream.js'
import { pollDelay } from './pollDelay.js'
import type { ClientSettings } from './settings.js'

/** A job followed on the proxy's event stream is still read now and then, should an event be lost on the way. */
const SAFETY_READ = 60_000
/**
 * A job's first state comes on the stream as it joins; should it not (an older proxy, a stream that
 * could not take the job), it is read after this.
 */
const FIRST_PUSH = 5_000

/** What following a job needs of the client: its tools, one read, and a pushed read made a Job. */
export interface JobReader {
  jobTool(id: string, jobId: string): ToolDefinition
  read(id: string, jobId: string, opts: CallOptions): Promise<Job>
  jobOf(tool: ToolDefinition, jobId: string, httpStatus: number, body: unknown): Job
}

/**
 * Follows a job until a terminal status: on the proxy's event stream when it names one (with a
 * read now and then, and polling while the stream keeps failing); else by polling, slower as the
 * job ages and while the page is hidden, at once when it is shown again or the connection
 * returns. `fresh` says the POST's answer just gave the job's state. Until the state is known, a
 * job the stream carries waits for its first push (the job as it joins), and one it cannot carry
 * is read at once. Past the poll timeout it fails with `timeout`, naming the job to wait for again.
 * A job exists from here on: every failure names it, so `wait(tool, jobId)` can take it up again.
 */
export async function followJob(
  parts: { settings: ClientSettings; stream: PageStream; reader: JobReader; kit: JobsHost },
  { id, jobId, fresh, requestId, replayed }: { id: string; jobId: string; fresh: boolean; requestId?: string; replayed?: true },
  opts: CallOptions,
): Promise<Job> {
  let watcher: JobWatcher | undefined
  const { settings, stream, reader } = parts
  const { ToolsError, jobFailedError, pagePresence, sleep } = parts.kit
  try {
    const tool = reader.jobTool(id, jobId)
    const presence = opts.presence ?? pagePresence
    const started = Date.now()
    const deadline = started + (opts.pollTimeoutMs ?? opts.pollTimeout ?? settings.pollTimeoutMs)
    for (let known = fresh; ; known = true) {
      let current: Job | undefined
      // The stream's chunk not loaded (the connection dropped): polled this time, the chunk fetched again next time.
      if (!watcher && stream.named()) watcher = (await stream.eventHub().catch(() => undefined))?.watch(id, jobId)
      const pushed = watcher ? await watcher.next(Math.min(known ? SAFETY_READ : FIRST_PUSH, deadline - Date.now()), opts.signal) : 'poll'
      if (pushed === 'poll' && known) {
        const delay = pollDelay(Date.now() - started, opts.pollIntervalMs ?? opts.pollInterval ?? settings.pollInterval, presence.hidden())
        await sleep(Math.min(delay, deadline - Date.now()), opts.signal, id, presence.subscribe)
      } else if (typeof pushed === 'object') {
        current = reader.jobOf(tool, jobId, pushed.status, pushed.body)
      }
      if (!current) {
        watcher?.clear()
        current = await reader.read(id, jobId, opts)
      }
      current.requestId ??= requestId
      if (replayed) current.replayed = true
      opts.onJob?.(current)
      if (current.phase === 'succeeded') return current
      if (current.phase === 'failed') throw jobFailedError(current, settings.interpret)
      if (Date.now() >= deadline) {
        const { requestId: lastRequest, data: body } = current
        const message = `${id}: the job ${jobId} did not finish in time; wait for it again.`
        throw new ToolsError('timeout', message, { tool: id, jobId, requestId: lastRequest, body })
      }
    }
  } catch (error) {
    if (error instanceof ToolsError && !error.jobId) {
      throw new ToolsError(error.kind, error.message, { ...error, tool: id, jobId, cause: error.cause })
    }
    throw error
  } finally {
    watcher?.stop()
  }
}
