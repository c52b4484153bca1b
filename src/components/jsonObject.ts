/** A place in a text: 1-based line and column, the column counted in characters as a person sees them. */
export interface TextPosition {
  line: number
  column: number
}

/** What a JSON field's text holds: an object, JSON of another shape, or text that does not parse (and where). */
export type JsonObjectReading =
  | { kind: 'object'; value: Record<string, unknown> }
  | { kind: 'not-an-object' }
  | { kind: 'syntax' }

/** Reads a JSON field's text; blank text is an empty object. Where text that does not parse stops: `syntaxErrorAt`. */
export function readJsonObject(text: string): JsonObjectReading {
  if (!text.trim()) return { kind: 'object', value: {} }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return { kind: 'syntax' }
  }
  return value && typeof value === 'object' && !Array.isArray(value)
    ? { kind: 'object', value: value as Record<string, unknown> }
    : { kind: 'not-an-object' }
}
