import { versionOf, type JobKey, type JobSnapshot, type JobStatus } from './jobStatus.js'

/** One job a stream carries: where it is in the store, and how the page names it. */
export interface StreamedJob {
  key: JobKey
  /** The tool's id, as the page's client names it. */
  tool: string
  /** The page's handle for the job. */
  handle: string
}

export interface EventStreamOptions<J extends StreamedJob> {
  /** The stream ends after this long; the page resumes it. */
  streamMaxMs: number
  /** A comment line this often keeps idle connections (and the proxies between) open. */
  heartbeatMs: number
  /** Bytes a stream may hold unread by a slow page before it is ended (the page resumes it). */
  maxQueuedBytes: number
  /** The job read's answer for this page (links signed for its user), as its status and JSON text. */
  answer(job: J, snapshot: JobSnapshot): Promise<{ status: number; json: string }>
  /** Told of a failure inside a stream (a store that failed mid-way), which then ends. */
  report(message: string): void
}

const encoder = new TextEncoder()
const HEARTBEAT = encoder.encode(': \n\n')

/**
 * Server-Sent Events for the jobs one page watches: each event the job read's answer for that page,
 * `{ tool, jobId, status, body }`, sent when the job changes, and once on opening for a job the page
 * has not seen in its present state. The event id lists, job by job, the version last sent (a
 * hash of the status and body), so a page that reconnects with `Last-Event-ID` and the same jobs
 * gets exactly what changed meanwhile, in whatever order instances published it; a job that
 * ended is sent once and dropped, and the stream ends when every job has.
 */
export function createEventStreams<J extends StreamedJob>(jobStatus: JobStatus, options: EventStreamOptions<J>) {
  /** Every open stream's heartbeat: one timer for all of them. */
  const beating = new Set<() => void>()
  let heartbeat: ReturnType<typeof setInterval> | undefined
  const beat = (send: () => void) => {
    beating.add(send)
    heartbeat ??= setInterval(() => {
      for (const each of beating) each()
    }, options.heartbeatMs)
    ;(heartbeat as { unref?: () => void }).unref?.()
    return () => {
      beating.delete(send)
      if (beating.size === 0 && heartbeat !== undefined) {
        clearInterval(heartbeat)
        heartbeat = undefined
      }
    }
  }

  return {
    /** How many streams are open in this instance. */
    get openStreams() {
      return beating.size
    },

    /** A stream of `jobs` for one page; `lastEventId` is the id the page saw last on a stream of the same jobs. */
    open(jobs: readonly J[], lastEventId: string | null, signal: AbortSignal, onClose: () => void): Response {
      const resumed = lastEventId?.split('.') ?? []
      /** Per job: the version the page has (as the last id said, then as sent), and the newest seen. */
      const sent = jobs.map((_, index) => (resumed.length === jobs.length ? resumed[index]! : ''))
      const seen = [...sent]
      const ended = jobs.map(() => false)
      const stops: (() => void)[] = []
      let queue: Promise<void> = Promise.resolve()
      let controller!: ReadableStreamDefaultController<Uint8Array>
      let closed = false
      let timer: ReturnType<typeof setTimeout> | undefined
      let stopBeat = () => {}

      const close = () => {
        if (closed) return
        closed = true
        onClose()
        clearTimeout(timer)
        stopBeat()
        for (const stop of stops) stop()
        signal.removeEventListener('abort', close)
        try {
          controller.close()
        } catch {
          // Already cancelled by the page.
        }
      }
      const send = (bytes: Uint8Array) => {
        if (closed) return
        controller.enqueue(bytes)
        // A page that does not read is not given memory without end: it resumes where it was.
        if ((controller.desiredSize ?? 0) < -options.maxQueuedBytes) close()
      }

      const finish = (index: number) => {
        ended[index] = true
        if (ended.every(Boolean)) close()
      }
      const deliver = (index: number, snapshot: JobSnapshot) => {
        const version = versionOf(snapshot)
        if (closed || ended[index]) return
        if (seen[index] === version) {
          // The page has this end already (its last id says so): nothing to send, one job fewer to wait for.
          if (snapshot.terminal) queue = queue.then(() => finish(index))
          return
        }
        seen[index] = version
        const job = jobs[index]!
        queue = queue.then(async () => {
          if (closed || seen[index] !== version) return
          try {
            const { status, json } = await options.answer(job, snapshot)
            if (closed) return
            sent[index] = version
            const data = `{"tool":${JSON.stringify(job.tool)},"jobId":${JSON.stringify(job.handle)},"status":${status},"body":${json}}`
            send(encoder.encode(`id: ${sent.join('.')}\nevent: job\ndata: ${data.replace(/\n/g, '\ndata: ')}\n\n`))
            if (snapshot.terminal) finish(index)
          } catch (error) {
            options.report(`a job event could not be sent: ${error instanceof Error ? error.message : String(error)}`)
            close()
          }
        })
      }

      const body = new ReadableStream<Uint8Array>(
        {
          start(streamController) {
            controller = streamController
            // How long a page waits before it reconnects, and the first bytes, so the headers go out now.
            controller.enqueue(encoder.encode('retry: 1000\n\n'))
            if (signal.aborted) return close()
            signal.addEventListener('abort', close)
            timer = setTimeout(close, options.streamMaxMs)
            stopBeat = beat(() => send(HEARTBEAT))
            jobs.forEach((job, index) => {
              jobStatus.watch(job.key, (snapshot) => deliver(index, snapshot)).then(
                (stop) => (closed ? stop() : stops.push(stop)),
                (error: unknown) => {
                  options.report(`a job could not be watched: ${error instanceof Error ? error.message : String(error)}`)
                  close()
                },
              )
            })
          },
          cancel: close,
        },
        { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
      )
      return new Response(body, {
        headers: {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'private, no-store',
          'X-Content-Type-Options': 'nosniff',
          // nginx and others buffer answers unless told: events must go out as they happen.
          'X-Accel-Buffering': 'no',
        },
      })
    },
  }
}
