import type { ToolDefinition } from './definition.js'
import { issue, ToolsError, validationError, type ValidationIssue } from './errors.js'
import { loadOnce, whenLoaded, type LoadWaitOptions } from './chunks.js'

/** A tool call's body, as the transport sends it. */
export interface Body {
  body: BodyInit
  contentType?: string
}

/**
 * The schema's verdict. A schema may load its checks when first used (the catalogue's do): when
 * that load fails offline, the call waits for the connection like any request, and says so.
 */
const verdict = (tool: ToolDefinition, input: unknown, opts: LoadWaitOptions) =>
  whenLoaded(async () => tool.input['~standard'].validate(input), 'The input checks', { tool: tool.id }, opts)

/** Checks an input against its tool's schema: one issue per field, so bad input never reaches the service. */
export async function validate(tool: ToolDefinition, input: unknown, opts: LoadWaitOptions = {}): Promise<Record<string, unknown>> {
  const result = await verdict(tool, input, opts)
  if (!result.issues) return result.value as Record<string, unknown>
  const byField = new Map<string, ValidationIssue>()
  for (const problem of result.issues) {
    const field =
      (problem.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.') || 'input'
    if (!byField.has(field)) byField.set(field, issue(field, problem.message))
  }
  throw validationError([...byField.values()], tool.id)
}

/** The upload with progress (XMLHttpRequest), a chunk of its own: fetched when a file's body is built. */
export const loadUploads = loadOnce(() => import('./xhr.js'))

/** A JSON tool's input as JSON; a file tool's as multipart: the file in its part, the options as JSON in `data`. */
export function encode(tool: ToolDefinition, value: Record<string, unknown>, fileFields?: Record<string, string>): Body {
  if (tool.body === 'json') return { body: JSON.stringify(value), contentType: 'application/json' }
  const { file, ...rest } = value as { file: Blob & { name?: string } }
  // The upload's code comes while the body is built and the request waits its turn.
  void loadUploads().catch(() => undefined)
  const form = new FormData()
  form.append('data', JSON.stringify(rest))
  form.append(fileFields?.[tool.id] ?? tool.fileField ?? 'file', file, file.name || 'upload')
  // No Content-Type: the transport sets multipart/form-data with its boundary.
  return { body: form }
}

/** The issues `validate` would throw for an input, or none. */
export async function issuesOf(tool: ToolDefinition, input: unknown): Promise<ValidationIssue[]> {
  try {
    await validate(tool, input)
    return []
  } catch (error) {
    if (error instanceof ToolsError) return error.issues
    throw error
  }
}
