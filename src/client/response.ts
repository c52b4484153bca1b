import type { ToolDefinition } from './definition.js'
import { ToolsError } from './errors.js'
import { pickString } from './record.js'
import type { ClientSettings } from './settings.js'

/** The body as JSON where it parses, else its text; undefined when empty. */
export async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

export function requestIdOf(body: unknown, headers?: Headers): string | undefined {
  return pickString(body, ['requestId', 'request_id']) ?? headers?.get('x-request-id') ?? undefined
}

export function malformed(tool: ToolDefinition, what: string, body: unknown, status: number): ToolsError {
  return new ToolsError('server', `Malformed answer: ${what}.`, {
    status,
    tool: tool.id,
    body,
    requestId: requestIdOf(body),
  })
}

/** Every result link in a body: URLs under `{baseUrl}/artifacts/`, as `interpret.artifacts` finds them. */
export const linksIn = (settings: ClientSettings, body: unknown) => settings.interpret.artifacts(body, `${settings.base()}/artifacts/`)
