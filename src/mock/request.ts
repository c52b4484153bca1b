import { mediaType, type ToolDefinition } from '../tools/internal.js'

/** A tool call's body, read and checked; or why it is refused with 400. */
export type ParsedCall =
  | {
      ok: true
      /** The JSON body, or a file tool's `data` options plus `file: { name, type, size }`. */
      input: Record<string, unknown>
    }
  | { ok: false; code: string; message: string; details?: Record<string, unknown> }

/** The media type of a request's body, without parameters such as the boundary. */
export function mediaTypeOf(request: Request): string | undefined {
  const header = request.headers.get('content-type')
  return header ? mediaType(header) : undefined
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}

const refuse = (code: string, message: string, details?: Record<string, unknown>): ParsedCall => ({
  ok: false,
  code,
  message,
  details,
})

/**
 * Reads a tool call's body as the catalogue row says it comes (JSON, or multipart with the
 * file in the row's part and options in `data`), then checks it with the row's own input
 * schema: the service refuses what the client would not have sent.
 */
export async function parseCall(tool: ToolDefinition, request: Request): Promise<ParsedCall> {
  const multipart = mediaTypeOf(request) === 'multipart/form-data'
  if (tool.body === 'json') {
    if (multipart) return refuse('json_expected', 'This tool takes a JSON body (application/json).')
    const text = await request.text()
    const body = parseObject(text === '' ? '{}' : text)
    if (!body) return refuse('invalid_json', 'The body must be a JSON object.')
    return validate(tool, body, body)
  }
  const fileField = tool.fileField ?? 'file'
  if (!multipart) {
    return refuse(
      'multipart_expected',
      `This tool takes multipart/form-data: the file in the part "${fileField}" and the options as JSON in the text part "data".`,
    )
  }
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    return refuse('invalid_multipart', 'The multipart/form-data body could not be read.')
  }
  // A text part comes back as a string. No `instanceof File`: under jsdom the parsed part is
  // a File of another realm (undici's).
  const file = form.get(fileField)
  if (file === null || typeof file === 'string') {
    return refuse('file_missing', `The file must be sent in the multipart part "${fileField}".`, { field: fileField })
  }
  const data = form.get('data')
  const options = data === null ? {} : typeof data === 'string' ? parseObject(data) : undefined
  if (!options) return refuse('invalid_data', 'The multipart part "data" must hold a JSON object.', { field: 'data' })
  // The schema checks the file with this realm's `instanceof Blob`; the part is checked above,
  // so a stand-in of this realm will do where it is foreign.
  const described = { name: file.name, type: file.type, size: file.size }
  const checked = file instanceof Blob ? file : new Blob([], { type: described.type })
  return validate(tool, { ...options, file: checked }, { ...options, file: described })
}

/** Checks `value` with the tool's schema; on success the call goes on with `input`. */
async function validate(tool: ToolDefinition, value: unknown, input: Record<string, unknown>): Promise<ParsedCall> {
  const { issues } = await tool.input['~standard'].validate(value)
  if (!issues) return { ok: true, input }
  const fields = issues.map((issue) => ({
    field: (issue.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.'),
    code: issue.message,
  }))
  const list = fields.map(({ field, code }) => `${field || 'body'} (${code})`).join(', ')
  return refuse('invalid_request', `Invalid fields: ${list}.`, { fields })
}
