// One Server-Sent Events body: its bytes queued for the page, its heartbeat, its time limit, its end.
import type { Beating, createHeartbeat } from './heartbeat.js'

const encoder = new TextEncoder()
const HEARTBEAT = encoder.encode(': \n\n')

export interface SseBodyOptions {
  signal: AbortSignal
  /** The stream ends after this long; the page resumes it. */
  streamMaxMs: number
  /** Bytes the body may hold unread by a slow page before it is ended (the page resumes it). */
  maxQueuedBytes: number
  heartbeat: ReturnType<typeof createHeartbeat>
  /** Called once, when the body ends for any reason. */
  onClose: () => void
}

/** A body that ends when the page goes, after `streamMaxMs`, or when a slow page leaves too much unread; `send` queues bytes, `close` ends it. */
export function sseBody({ signal, streamMaxMs, maxQueuedBytes, heartbeat, onClose }: SseBodyOptions) {
  let controller!: ReadableStreamDefaultController<Uint8Array>
  let closed = false
  let timer: ReturnType<typeof setTimeout> | undefined
  let stopBeat = () => {}
  const stops: (() => void)[] = []
  const pulse: Beating = { quiet: 0, beat: () => send(HEARTBEAT) }

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
    pulse.quiet = 0
    controller.enqueue(bytes)
    // A page that does not read is not given memory without end: it resumes where it was.
    if ((controller.desiredSize ?? 0) < -maxQueuedBytes) close()
  }
  const body = new ReadableStream<Uint8Array>(
    {
      start(streamController) {
        controller = streamController
        // How long a page waits before it reconnects, and the first bytes, so the headers go out now.
        controller.enqueue(encoder.encode('retry: 1000\n\n'))
        if (signal.aborted) return close()
        signal.addEventListener('abort', close)
        timer = setTimeout(close, streamMaxMs)
        stopBeat = heartbeat.add(pulse)
      },
      cancel: close,
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  )
  return {
    body,
    send,
    close,
    get closed() {
      return closed
    },
    /** Runs `stop` when the body ends. */
    onEnd(stop: () => void) {
      stops.push(stop)
    },
  }
}

export type SseBody = ReturnType<typeof sseBody>
