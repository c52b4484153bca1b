import { issue, validationError, type Job, type Result, type ToolDefinition } from '../client/index.js'
import type { StandardSchemaV1 } from '../client/index.js'
import { lazyInput, type FieldKind, type InputOfRow } from './lazyInput.js'

/** Accepted uploads by default, per file tool, in react-dropzone's `accept` form. */
const images = { 'image/*': ['.png', '.jpg', '.jpeg', '.webp', '.gif'] }
const documents = {
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'text/plain': ['.txt'],
}

/**
 * The rows of `TOOLS`. Ids are the paths without the leading slash (`TOOLS` adds each `path`).
 * `fields` are the named fields spec part 2 validates (`text`: non-empty string, `positive`:
 * number above zero, `?`: optional); a file tool's `file` and a listing tool's `objectId` / `collectionId` come with
 * its `body` and `listing`; every other field passes through.
 */
const ROWS = [
  { id: 'valuation/express', mode: 'sync', body: 'json', scope: null },
  { id: 'valuation/report', mode: 'deferred', body: 'json', scope: 'tools:valuation' },
  {
    id: 'valuation/rent',
    mode: 'sync',
    body: 'json',
    scope: 'tools:rent',
    fields: { propertyCategory: 'text', totalArea: 'positive', city: 'text' },
  },
  {
    id: 'valuation/review',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:review',
    fileField: 'file',
    accept: documents,
  },
  { id: 'content/generate', mode: 'deferred', body: 'json', scope: 'tools:contentgen' },
  { id: 'text/generate', mode: 'deferred', body: 'json', scope: 'tools:text' },
  { id: 'avatar/video', mode: 'deferred', body: 'json', scope: 'tools:avatar' },
  {
    id: 'video/create',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:video',
    fileField: 'file',
    accept: { 'video/*': ['.mp4', '.mov', '.webm'] },
  },
  {
    id: 'photo/enhance',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:photo',
    fileField: 'image',
    accept: images,
    fields: { mode: 'text?' },
  },
  {
    id: 'floorplan/create',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:floorplan',
    fileField: 'file',
    accept: { ...images, 'application/pdf': ['.pdf'] },
  },
  {
    id: 'draft/extract',
    mode: 'sync',
    body: 'multipart',
    scope: 'tools:draft',
    fileField: 'file',
    accept: documents,
  },
  { id: 'site/create', mode: 'sync', body: 'json', scope: 'tools:sitegen', listing: true },
  {
    id: 'pdf/create',
    mode: 'deferred',
    body: 'json',
    scope: 'tools:pdf',
    listing: true,
    fields: { language: 'text?' },
  },
] as const satisfies readonly (Omit<ToolDefinition, 'input' | 'path'> & {
  accept?: Record<string, readonly string[]>
  fields?: Readonly<Record<string, FieldKind>>
})[]

/** Each row with its `path` (its id after a slash) and `input`: the Standard Schema of what it takes. */
type WithInputs<Rows extends readonly { id: string }[]> = {
  readonly [I in keyof Rows]: Rows[I] & { readonly path: `/${Rows[I]['id']}`; readonly input: StandardSchemaV1<InputOfRow<Rows[I]>> }
}

/**
 * The thirteen tools of spec part 4: the single source of every per-tool fact in the kit.
 * Each row's `input` is a Standard Schema whose checks (zod/mini) load in a chunk of their own
 * at the first validation, so a page that has not checked an input yet carries none of them.
 */
export const TOOLS = ROWS.map((row) => ({ ...row, path: `/${row.id}`, input: lazyInput(row) })) as unknown as WithInputs<typeof ROWS>

export type Tool = (typeof TOOLS)[number]
export type ToolId = Tool['id']

/**
 * The tools whose answers carry files the service made for the call (a report, a video, a
 * site): the proxy signs their links for the caller. The spec does not say; the others answer
 * with text and figures (valuation/express, valuation/rent, draft/extract, content/generate,
 * text/generate). Beside the table so the browser's bundles leave it out; `fileTools` overrides it.
 */
export const FILE_MAKING_TOOLS: readonly ToolId[] = [
  'valuation/report',
  'valuation/review',
  'avatar/video',
  'video/create',
  'photo/enhance',
  'floorplan/create',
  'site/create',
  'pdf/create',
]
/** The row of one tool. */
export type ToolOf<T extends ToolId> = Extract<Tool, { id: T }>
/** A key's permission to use a tool (spec part 5). */
export type Scope = NonNullable<Tool['scope']>
/**
 * What a partner declares once for the whole app, by module augmentation (the spec shows no
 * result bodies and leaves most input fields open): `results` (each tool's answer, as `data`)
 * and `inputs` (each tool's fields; a key not declared is then a type error). Undeclared tools
 * stay `unknown` and open.
 *
 * @example
 * declare module '@cabinet/tools-react' {
 *   interface Register {
 *     results: { 'valuation/rent': { monthlyRent: number } }
 *     inputs: { 'valuation/rent': { propertyCategory: string; totalArea: number; city: string; rooms?: number } }
 *   }
 * }
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled in by the partner's augmentation
export interface Register {}

type Declared<Part extends 'results' | 'inputs'> = Register extends { [K in Part]: infer Tools } ? Tools : object

/** The body of a tool's finished answer: its type in `Register['results']`, else `unknown`. */
export type ToolData<T extends ToolId> = T extends keyof Declared<'results'> ? Declared<'results'>[T] : unknown

/** The fields the catalogue checks, without the open rest. */
type CheckedFields<Input> = { [K in keyof Input as string extends K ? never : K]: Input[K] }

/**
 * What a tool takes: its named fields checked, any other field passed through; once declared
 * in `Register['inputs']`, the declared fields (with those the catalogue checks) and no others.
 */
export type ToolInput<T extends ToolId> = T extends keyof Declared<'inputs'>
  ? CheckedFields<InputOfRow<ToolOf<T>>> & Declared<'inputs'>[T]
  : InputOfRow<ToolOf<T>>
export type SyncToolId = Extract<Tool, { mode: 'sync' }>['id']
export type DeferredToolId = Extract<Tool, { mode: 'deferred' }>['id']
export type FileToolId = Extract<Tool, { body: 'multipart' }>['id']
export type ListingToolId = Extract<Tool, { listing: true }>['id']
/** What a finished call yields: a `Result` for synchronous tools, the terminal `Job` for deferred ones. */
export type ToolResult<T extends ToolId> = T extends SyncToolId
  ? Result<T, ToolData<T>>
  : Extract<Job<T, ToolData<T>>, { phase: 'succeeded' }>

/** The input fields the catalogue checks, across all tools (`file` for the upload). */
export type InputField = { [T in ToolId]: Extract<keyof CheckedFields<InputOfRow<ToolOf<T>>>, string> }[ToolId]

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
