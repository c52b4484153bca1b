import { jobName } from '../jobs/jobSnapshot.js'
import { createHeartbeat } from './heartbeat.js'
import { sseBody, type SseBody } from './sseBody.js'
import { versionOf, type JobKey, type JobSnapshot, type JobStatus } from '../jobs/jobStatus.js'
import { EVENT_STREAM_HEADERS, eventId, fullEvent, jobEvent, jobTag, versionsIn } from './streamFormat.js'
import { thrownText } from '../partnerHooks.js'

/** One job a stream carries: where it is in the store, and how the page names it. */
export interface StreamedJob {
  key: JobKey
  /** The tool's id, as the page's client names it. */
  tool: string
  /** The page's handle for the job. */
  handle: string
  /** The job's first snapshot, as its creation's news told it: its state while the store holds none yet (its write on its way). */
  first?: JobSnapshot
}

export interface EventStreamOptions<J extends StreamedJob> {
  /** The stream ends after this long; the page resumes it. */
  streamMaxMs: number
  /** A comment line after this long with nothing sent keeps idle connections (and the proxies between) open. */
  heartbeatMs: number
  /** Bytes a stream may hold unread by a slow page before it is ended (the page resumes it). */
  maxQueuedBytes: number
  /** The job read's answer for this page (links signed for its user), as its status and JSON text. */
  answer(job: J, snapshot: JobSnapshot): Promise<{ status: number; json: string }>
  /** The job's present state when the store holds none, as a job read gets it (its refusal or failure too). */
  present(job: J): Promise<JobSnapshot>
  /** Told of a failure inside a stream (a store that failed mid-way), which then ends. */
  report(message: string): void
}

/** A job the page named that its user may not read: the refusal a read of it answers, as its status and JSON text. */
export interface RefusedJob {
  tool: string
  handle: string
  status: number
  json: string
}

/** Jobs in flight one stream carries, at most. */
export const MAX_STREAMED_JOBS = 50

/**
 * Server-Sent Events for the jobs one page watches: each event the job read's answer for that page,
 * `{ tool, jobId, status, body }`, sent when a job joins (its present state, unless the page has it
 * already) and when it changes; a job the page may not read, its refusal, once; one past
 * `MAX_STREAMED_JOBS` in flight, `event: full` (not carried), once. Jobs join an open
 * stream (`add`): the user's new jobs, as the route hears of them. The event id lists, job by job,
 * a tag of the job and the version last sent (a hash of the status and body), so a page that
 * reconnects with `Last-Event-ID` gets exactly what changed meanwhile, in whatever order instances
 * published it and whatever jobs it names; a job that ended is sent once and dropped, and the
 * stream ends when every job has.
 */
export function createEventStreams<J extends StreamedJob>(jobStatus: JobStatus, options: EventStreamOptions<J>) {
  const heartbeat = createHeartbeat(options.heartbeatMs)

  return {
    /** How many streams are open in this instance. */
    get openStreams() {
      return heartbeat.size
    },

    /**
     * A stream of `jobs` for one page (`lastEventId`: the id the page saw last), with the `refused`
     * ones' refusals, and `add`, which puts one more on it (ignored if it carries the job already;
     * once it carries `MAX_STREAMED_JOBS` in flight, told to the page as not carried).
     */
    open(
      jobs: readonly J[],
      refused: readonly RefusedJob[],
      lastEventId: string | null,
      signal: AbortSignal,
      onClose: () => void,
    ): { response: Response; add: (job: J) => void } {
      const { streamMaxMs, maxQueuedBytes } = options
      const stream = sseBody({ signal, streamMaxMs, maxQueuedBytes, heartbeat, onClose })
      const add = jobsCarried(jobStatus, options, stream, versionsIn(lastEventId))
      // The stream has started (its start runs at once): each job is watched from here.
      for (const { tool, handle, status, json } of refused) stream.send(jobEvent(tool, handle, status, json))
      for (const job of jobs) add(job)
      return { response: new Response(stream.body, { headers: EVENT_STREAM_HEADERS }), add }
    },
  }
}

/**
 * The jobs one stream carries, each watched from when it joins (`add`): its changes sent in order,
 * one at a time; a job that ended is sent once and dropped, and the stream ends when every job has.
 * `resumed`: the version of each job the page has already, from its last event id.
 */
function jobsCarried<J extends StreamedJob>(jobStatus: JobStatus, options: EventStreamOptions<J>, stream: SseBody, resumed: Map<string, string>) {
  const carried: { job: J; tag: string; sent: string; seen: string; ended: boolean }[] = []
  let queue: Promise<void> = Promise.resolve()
  const { send, close } = stream

  const finish = (entry: (typeof carried)[number]) => {
    entry.ended = true
    if (carried.every((each) => each.ended)) return close()
    // The id keeps the last ended jobs (a page resuming has their ends), no more: it stays short.
    const ended = carried.filter((each) => each.ended)
    if (ended.length > MAX_STREAMED_JOBS) carried.splice(carried.indexOf(ended[0]!), 1)
  }
  const deliver = (entry: (typeof carried)[number], snapshot: JobSnapshot) => {
    const version = versionOf(snapshot)
    if (stream.closed || entry.ended) return
    if (entry.seen === version) {
      // The page has this end already (its last id says so): nothing to send, one job fewer to wait for.
      if (snapshot.terminal) queue = queue.then(() => finish(entry))
      return
    }
    entry.seen = version
    const { job } = entry
    queue = queue.then(async () => {
      if (stream.closed || entry.seen !== version) return
      try {
        const { status, json } = await options.answer(job, snapshot)
        if (stream.closed) return
        entry.sent = version
        send(jobEvent(job.tool, job.handle, status, json, eventId(carried)))
        if (snapshot.terminal) finish(entry)
      } catch (error) {
        options.report(`a job event could not be sent: ${thrownText(error)}`)
        close()
      }
    })
  }
  return (job: J) => {
    const name = jobName(job.key)
    if (stream.closed || carried.some((each) => jobName(each.job.key) === name)) return
    if (carried.filter((each) => !each.ended).length >= MAX_STREAMED_JOBS) return send(fullEvent(job.tool, job.handle))
    const tag = jobTag(job.tool, job.handle)
    const entry = { job, tag, sent: resumed.get(tag) ?? '', seen: resumed.get(tag) ?? '', ended: false }
    carried.push(entry)
    const failed = (error: unknown) => {
      options.report(`a job could not be watched: ${thrownText(error)}`)
      close()
    }
    let told = false
    const listener = (snapshot: JobSnapshot) => {
      told = true
      deliver(entry, snapshot)
    }
    jobStatus.watch(job.key, listener, job.first).then((stop) => {
      if (stream.closed) return stop()
      stream.onEnd(stop)
      // The store holds nothing of the job (started elsewhere, or the store restarted empty): read as a job read would.
      if (!told) options.present(job).then((snapshot) => told || deliver(entry, snapshot), failed)
    }, failed)
  }
}
