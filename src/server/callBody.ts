// A tool call's body as the proxy passes it on: a JSON one checked first, an upload streamed under its cap.
import type { Tool } from '../tools/index.js'
import { errorAnswer } from './answers.js'
import { bodyOf, byteLimit, fixedLength, smallBody } from './bodies.js'
import type { ProxyContext } from './context.js'
import type { formFieldReader } from './formFields.js'
import { artifactPaths, stringsIn } from './links.js'
import type { upstreamTimer } from './upstream.js'

/** A JSON call's body as read: its bytes, and the strings in it. */
export interface JsonCall {
  bytes: Uint8Array
  strings: string[]
}

/**
 * The body sent on: a JSON call's bytes, or the upload streamed through its cap (`onExceeded` past
 * it), its multipart text fields read on the way by `form`. `onSent` when it has all gone by: the
 * answer's time starts then. An upload moves, or it times out (`timer.touch` on each chunk).
 */
export function outgoingBody(
  request: Request,
  { parsed, form, maxBytes, timer, onSent, onExceeded }: {
    parsed: JsonCall | undefined
    form: ReturnType<typeof formFieldReader> | undefined
    maxBytes: number
    timer: ReturnType<typeof upstreamTimer>
    onSent: () => void
    onExceeded: () => void
  },
): BodyInit | null {
  if (parsed) {
    onSent()
    return parsed.bytes as Uint8Array<ArrayBuffer>
  }
  if (!request.body) {
    onSent()
    return null
  }
  const received = bodyOf(request)!
  timer.touch()
  let stream = received.pipeThrough(byteLimit(maxBytes, { onChunk: timer.touch, onExceeded, onEnd: onSent }))
  if (form) stream = stream.pipeThrough(form.stream)
  return fixedLength(stream, request.headers.get('content-length'))
}

/** A JSON call's body, read whole (it is options, not a file): its bytes and the strings in it, or a refusal. */
export async function jsonBody(context: ProxyContext, request: Request, tool: Tool): Promise<JsonCall | Response> {
  const text = await smallBody(request, context.settings.maxJsonBytes, context.settings.timeoutMs)
  if (text instanceof Response) return text
  let input: unknown
  try {
    input = JSON.parse(text)
  } catch {
    return errorAnswer(400, 'invalidInput', 'The body is not JSON.')
  }
  // A call the service would refuse never reaches it, and never holds a place under the cap.
  const checked = await tool.input['~standard'].validate(input)
  if (checked.issues) {
    const issues = checked.issues.map((issue) => ({
      path: (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)),
      message: issue.message,
    }))
    return errorAnswer(400, 'invalidInput', `The input for ${tool.id} is not valid.`, { details: { issues } })
  }
  return { bytes: new TextEncoder().encode(text), strings: stringsIn(input) }
}

/** The service's URLs in a multipart body's text fields; every URL counts as written when they could not be read. */
export function formPaths(fields: string[] | undefined, service: ProxyContext['service']): Set<string> | 'unknown' {
  if (!fields) return 'unknown'
  const strings = fields.flatMap((field) => {
    try {
      return stringsIn(JSON.parse(field))
    } catch {
      return [field]
    }
  })
  return artifactPaths(strings, service.base, service.scrub)
}
