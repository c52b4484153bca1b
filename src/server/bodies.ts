import { errorAnswer } from './answers.js'

/** How much of an upload is read before a refusal, so the browser sees the answer, not a reset. */
const DRAIN_BYTES = 8 * 1024 * 1024

/** What is read away of a body the proxy stopped reading, at most, and for how long: the connection then serves the next request. */
const DISCARD_BYTES = 64 * 1024 * 1024
const DISCARD_MS = 10_000

/** Requests whose bodies the proxy read to their end: any other's answer closes its connection (`closeUnread`). */
const readToEnd = new WeakSet<Request>()

/**
 * The request's body as the proxy reads it. Cancelling it never cancels the runtime's own stream
 * (on Node 20 and 24, cancelling srvx's or `Readable.toWeb`'s stream while data is on its way
 * throws ERR_INVALID_STATE outside any handler, ending the process): the rest is read away
 * instead, up to DISCARD_BYTES and for DISCARD_MS, so a keep-alive connection is free for the next request.
 */
export function bodyOf(request: Request): ReadableStream<Uint8Array> | null {
  const reader = request.body?.getReader()
  if (!reader) return null
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await reader.read()
        if (done) {
          readToEnd.add(request)
          controller.close()
        } else controller.enqueue(value)
      },
      cancel: () => discard(request, reader),
    },
    { highWaterMark: 0 },
  )
}

async function discard(request: Request, reader: ReadableStreamDefaultReader<Uint8Array>) {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<{ done: true; value?: undefined }>((resolve) => (timer = setTimeout(() => resolve({ done: true }), DISCARD_MS)))
  try {
    for (let seen = 0; seen <= DISCARD_BYTES; ) {
      const { done, value } = await Promise.race([reader.read(), deadline])
      if (done) return
      seen += value.byteLength
    }
  } catch {
    // The sender went away: nothing left to read.
  } finally {
    clearTimeout(timer)
  }
}

/**
 * The answer to a request whose body the proxy did not read to its end (refused unread, cut at a
 * cap or a deadline) asks the runtime to close the connection once it is sent: otherwise Node
 * reads the rest away itself, and a trickling sender holds the connection for minutes.
 */
export function closeUnread(request: Request, answer: Response): Response {
  if (!request.body || readToEnd.has(request)) return answer
  try {
    answer.headers.set('Connection', 'close')
  } catch {
    // Headers that cannot change (a runtime's own answer): the runtime decides.
  }
  return answer
}

export const tooLarge = (maxBytes: number) =>
  errorAnswer(413, 'uploadTooLarge', `The upload is larger than ${maxBytes} bytes.`, { details: { maxBytes } })

/** Answers a refusal of a request with a body once some of the body is read, so the browser gets the answer, not a reset. */
export async function refuse(request: Request, answer: Response, timeoutMs: number): Promise<Response> {
  if (request.body && !request.bodyUsed) await drain(request, DRAIN_BYTES, timeoutMs)
  return answer
}

/** A small body (a call's options), read whole up to `cap` within `timeoutMs`: its text, or the refusal to answer. */
export async function smallBody(request: Request, cap: number, timeoutMs: number): Promise<string | Response> {
  const bytes = await smallBytes(request, cap, timeoutMs)
  return bytes instanceof Response ? bytes : new TextDecoder().decode(bytes)
}

/** What a body still arriving after `afterMs` must get to go on being read: `take` answers a refusal when it cannot. */
export interface SlowBody {
  afterMs: number
  take: () => Response | undefined
}

/**
 * A small body's bytes, read whole up to `cap` within `timeoutMs`, or the refusal to answer; with
 * `slow`, one still arriving after `slow.afterMs` goes on only if `slow.take()` lets it.
 */
export async function smallBytes(request: Request, cap: number, timeoutMs: number, slow?: SlowBody): Promise<Uint8Array | Response> {
  // Declared too large: not a byte read (the runtime drops an untouched body at its own cost).
  if (Number(request.headers.get('content-length')) > cap) return tooLarge(cap)
  const reader = request.body?.getReader()
  if (!reader) return new Uint8Array(0)
  // A sender sending slowly holds nothing for long, nor does a page gone. Read straight from the
  // runtime's reader, with no stream between: a refused body is read away, never cancelled (bodyOf).
  let stop!: (answer: Response) => void
  const stopped = new Promise<Response>((resolve) => (stop = resolve))
  const timer = setTimeout(() => stop(errorAnswer(408, 'requestTimeout', `The request’s body did not arrive within ${timeoutMs} ms.`)), timeoutMs)
  const slowTimer =
    slow &&
    setTimeout(() => {
      const refusal = slow.take()
      if (refusal) stop(refusal)
    }, slow.afterMs)
  const onAbort = () => stop(errorAnswer(499, 'clientClosed', 'The request was cancelled.'))
  if (request.signal.aborted) onAbort()
  else request.signal.addEventListener('abort', onAbort, { once: true })
  const chunks: Uint8Array[] = []
  try {
    for (let seen = 0; ; ) {
      const read = await Promise.race([reader.read(), stopped])
      if (read instanceof Response || (seen += read.value?.byteLength ?? 0) > cap) {
        void discard(request, reader)
        return read instanceof Response ? read : tooLarge(cap)
      }
      if (read.done) {
        readToEnd.add(request)
        return chunks.length === 1 ? chunks[0]! : joined(chunks, seen)
      }
      chunks.push(read.value)
    }
  } catch (error) {
    if (request.signal.aborted) return errorAnswer(499, 'clientClosed', 'The request was cancelled.')
    throw error
  } finally {
    clearTimeout(timer)
    clearTimeout(slowTimer)
    request.signal.removeEventListener('abort', onAbort)
  }
}

function joined(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length)
  let at = 0
  for (const chunk of chunks) {
    whole.set(chunk, at)
    at += chunk.byteLength
  }
  return whole
}

/**
 * Passes a body on chunk by chunk until more than `max` bytes went by; then `onExceeded` (which
 * aborts the request) and nothing more, the stream neither ending nor failing: a runtime that
 * turns a failed stream into the end of the body (workerd does) must not send a cut file as whole.
 */
export function byteLimit(
  max: number,
  on: { onChunk: () => void; onExceeded: () => void; onEnd: () => void },
): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0
  return new TransformStream({
    transform(chunk, controller) {
      if (seen > max) return
      seen += chunk.byteLength
      on.onChunk()
      if (seen > max) on.onExceeded()
      else controller.enqueue(chunk)
    },
    flush() {
      if (seen <= max) on.onEnd()
    },
  })
}

/**
 * Where the runtime has it (Cloudflare Workers), a body of a declared length goes through a
 * FixedLengthStream: a body that ends short then fails the request instead of arriving as a
 * whole, shorter file.
 */
export function fixedLength(stream: ReadableStream<Uint8Array>, contentLength: string | null): ReadableStream<Uint8Array> {
  const Fixed = (globalThis as { FixedLengthStream?: new (length: number) => TransformStream<Uint8Array, Uint8Array> }).FixedLengthStream
  return Fixed && contentLength && /^\d+$/.test(contentLength) ? stream.pipeThrough(new Fixed(Number(contentLength))) : stream
}

/** Reads and drops up to `cap` bytes of a body, for at most `timeoutMs`. */
async function drain(request: Request, cap: number, timeoutMs: number) {
  const reader = bodyOf(request)!.getReader()
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))
  try {
    for (let seen = 0; seen <= cap; ) {
      const next = await Promise.race([reader.read(), deadline.then(() => ({ done: true as const, value: undefined }))])
      if (next.done) break
      seen += next.value.byteLength
    }
  } catch {
    // A body that fails is drained.
  } finally {
    // Not cancelled: what is left is not read, and the answer closes the connection (closeUnread).
    clearTimeout(timer)
    reader.releaseLock()
  }
}
