import { joinBytes } from './bytes.js'
/** Text fields kept at most, in bytes all together: an options part is small; a larger one is not read. */
const MAX_TEXT_BYTES = 1024 * 1024
/** A part's headers, at most. */
const MAX_HEADERS_BYTES = 8 * 1024

const latin1 = new TextDecoder('latin1')
const utf8 = new TextDecoder()
const bytesOf = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0))

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  for (let at = haystack.indexOf(needle[0]!, from); at >= 0; at = haystack.indexOf(needle[0]!, at + 1)) {
    if (at + needle.length > haystack.length) return -1
    let match = true
    for (let i = 1; i < needle.length && match; i++) match = haystack[at + i] === needle[i]
    if (match) return at
  }
  return -1
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b
  const joined = new Uint8Array(a.length + b.length)
  joined.set(a)
  joined.set(b, a.length)
  return joined
}

/**
 * Passes a multipart/form-data body on unchanged, reading its text fields (the parts with no
 * file name) as they go by, so the proxy knows what the user wrote without buffering the file.
 * `fields()` is undefined until the whole body has gone by, and when it could not be read (too
 * large, malformed): callers treat that as "anything may have been written".
 */
export function formFieldReader(contentType: string) {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType)
  const delimiter = boundary ? bytesOf(`\r\n--${boundary[1] ?? boundary[2]}`) : undefined
  const fields: string[] = []
  let state: 'preamble' | 'after' | 'headers' | 'text' | 'file' | 'done' | 'unreadable' = delimiter ? 'preamble' : 'unreadable'
  // The body opens with the delimiter less its line break: pretend it had one.
  let pending: Uint8Array = bytesOf('\r\n')
  let text: Uint8Array[] = []
  let kept = 0

  const keep = (bytes: Uint8Array) => {
    if (state !== 'text' || bytes.length === 0) return
    kept += bytes.length
    if (kept > MAX_TEXT_BYTES) state = 'unreadable'
    else text.push(bytes.slice())
  }
  const read = () => {
    for (;;) {
      if (state === 'unreadable' || state === 'done') return
      if (state === 'after') {
        if (pending.length < 2) return
        const next = latin1.decode(pending.subarray(0, 2))
        pending = pending.subarray(2)
        state = next === '--' ? 'done' : next === '\r\n' ? 'headers' : 'unreadable'
      } else if (state === 'headers') {
        const end = indexOf(pending, bytesOf('\r\n\r\n'))
        if (end < 0) {
          if (pending.length > MAX_HEADERS_BYTES) state = 'unreadable'
          return
        }
        const headers = latin1.decode(pending.subarray(0, end))
        pending = pending.subarray(end + 4)
        state = /content-disposition:[^\r\n]*;\s*filename\*?=/i.test(headers) ? 'file' : 'text'
        text = [] // the cap counts every text part together: `kept` goes on
      } else {
        const at = indexOf(pending, delimiter!)
        if (at < 0) {
          // Keep what could be the start of the delimiter; the rest is content.
          const safe = Math.max(0, pending.length - delimiter!.length + 1)
          keep(pending.subarray(0, safe))
          pending = pending.slice(safe)
          return
        }
        keep(pending.subarray(0, at))
        if (state === 'text') fields.push(utf8.decode(joinBytes(text)))
        pending = pending.subarray(at + delimiter!.length)
        state = 'after'
      }
    }
  }
  let ended = false
  const stream = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      if (state !== 'unreadable' && state !== 'done') {
        pending = concat(pending, chunk)
        read()
      }
      controller.enqueue(chunk)
    },
    flush() {
      ended = true
    },
  })
  return { stream, fields: () => (ended && state === 'done' ? fields : undefined) }
}
