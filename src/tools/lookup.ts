import { issue, validationError } from '../client/index.js'
import { TOOLS, type InputField, type Tool, type ToolId, type ToolOf } from './catalogue.js'
import type { FieldKind } from './lazyInput.js'

// Apart from the rows, so what reads them reads the catalogue as it stands (a test adds a row).

/** One named input field, as a form needs it. */
export interface InputFieldSpec {
  name: InputField
  type: 'text' | 'number' | 'file'
  /** False for optional fields, and for `objectId` / `collectionId`, of which exactly one is needed. */
  required: boolean
}

/**
 * The fields one tool's input names, in the catalogue's order. Takes an id
 * or a catalogue row (`inputFields(TOOLS[0])`); an unknown one throws a `validation` error.
 */
export function inputFields(tool: ToolId | Tool): InputFieldSpec[] {
  const id: unknown = typeof tool === 'object' && tool !== null ? tool.id : tool
  const row = typeof id === 'string' ? getTool(id) : undefined
  if (!row) throw validationError([issue('tool', 'unknown-tool')], typeof id === 'string' ? id : undefined)
  const named: [string, FieldKind][] = Object.entries('fields' in row ? row.fields : {})
  const specs: InputFieldSpec[] = []
  if (row.body === 'multipart') specs.push({ name: 'file', type: 'file', required: true })
  if ('listing' in row) specs.push({ name: 'objectId', type: 'text', required: false }, { name: 'collectionId', type: 'text', required: false })
  for (const [name, kind] of named) {
    specs.push({ name: name as InputField, type: kind === 'positive' ? 'number' : 'text', required: !kind.endsWith('?') })
  }
  return specs
}

/** The catalogue row of `id`, or undefined for an unknown id. */
export function getTool<T extends ToolId>(id: T): ToolOf<T>
export function getTool(id: string): Tool | undefined
export function getTool(id: string): Tool | undefined {
  return TOOLS.find((tool) => tool.id === id)
}
