import { issue, validationError, type Job, type Result, type ToolDefinition } from '../client/index.js'
import * as z from 'zod/mini'
import { fields, listing, open, positive, text, upload } from './inputs.js'

/** Accepted uploads by default, per file tool, in react-dropzone's `accept` form. */
const images = { 'image/*': ['.png', '.jpg', '.jpeg', '.webp', '.gif'] }
const documents = {
  'application/pdf': ['.pdf'],
  'application/msword': ['.doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['.docx'],
  'text/plain': ['.txt'],
}

/**
 * The thirteen tools of spec part 4: the single source of every per-tool fact in the kit.
 * Ids are the paths without the leading slash. Inputs validate the fields spec part 2 names.
 */
export const TOOLS = [
  { id: 'valuation/express', path: '/valuation/express', mode: 'sync', body: 'json', scope: null, input: open() },
  { id: 'valuation/report', path: '/valuation/report', mode: 'deferred', body: 'json', scope: 'tools:valuation', input: open() },
  {
    id: 'valuation/rent',
    path: '/valuation/rent',
    mode: 'sync',
    body: 'json',
    scope: 'tools:rent',
    input: fields({ propertyCategory: text(), totalArea: positive(), city: text() }),
  },
  {
    id: 'valuation/review',
    path: '/valuation/review',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:review',
    fileField: 'file',
    accept: documents,
    input: upload(),
  },
  { id: 'content/generate', path: '/content/generate', mode: 'deferred', body: 'json', scope: 'tools:contentgen', input: open() },
  { id: 'text/generate', path: '/text/generate', mode: 'deferred', body: 'json', scope: 'tools:text', input: open() },
  { id: 'avatar/video', path: '/avatar/video', mode: 'deferred', body: 'json', scope: 'tools:avatar', input: open() },
  {
    id: 'video/create',
    path: '/video/create',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:video',
    fileField: 'file',
    accept: { 'video/*': ['.mp4', '.mov', '.webm'] },
    input: upload(),
  },
  {
    id: 'photo/enhance',
    path: '/photo/enhance',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:photo',
    fileField: 'image',
    accept: images,
    input: upload({ mode: z.optional(text()) }),
  },
  {
    id: 'floorplan/create',
    path: '/floorplan/create',
    mode: 'deferred',
    body: 'multipart',
    scope: 'tools:floorplan',
    fileField: 'file',
    accept: { ...images, 'application/pdf': ['.pdf'] },
    input: upload(),
  },
  {
    id: 'draft/extract',
    path: '/draft/extract',
    mode: 'sync',
    body: 'multipart',
    scope: 'tools:draft',
    fileField: 'file',
    accept: documents,
    input: upload(),
  },
  { id: 'site/create', path: '/site/create', mode: 'sync', body: 'json', scope: 'tools:sitegen', listing: true, input: listing({}) },
  {
    id: 'pdf/create',
    path: '/pdf/create',
    mode: 'deferred',
    body: 'json',
    scope: 'tools:pdf',
    listing: true,
    input: listing({ language: z.optional(text()) }),
  },
] as const satisfies readonly (ToolDefinition & { accept?: Record<string, readonly string[]> })[]

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
  ? CheckedFields<z.input<ToolOf<T>['input']>> & Declared<'inputs'>[T]
  : z.input<ToolOf<T>['input']>
export type SyncToolId = Extract<Tool, { mode: 'sync' }>['id']
export type DeferredToolId = Extract<Tool, { mode: 'deferred' }>['id']
export type FileToolId = Extract<Tool, { body: 'multipart' }>['id']
export type ListingToolId = Extract<Tool, { listing: true }>['id']
/** What a finished call yields: a `Result` for synchronous tools, the terminal `Job` for deferred ones. */
export type ToolResult<T extends ToolId> = T extends SyncToolId
  ? Result<T, ToolData<T>>
  : Extract<Job<T, ToolData<T>>, { phase: 'succeeded' }>

/** The input fields the catalogue checks, across all tools (`file` for the upload). */
export type InputField = { [T in ToolId]: Extract<keyof ToolOf<T>['input']['shape'], string> }[ToolId]

/** One named input field, as a form needs it. */
export interface InputFieldSpec {
  name: InputField
  type: 'text' | 'number' | 'file'
  /** False for optional fields, and for `objectId` / `collectionId`, of which exactly one is needed. */
  required: boolean
}

/**
 * The fields one tool's input names, in the catalogue's order, read off its schema. Takes an id
 * or a catalogue row (`inputFields(TOOLS[0])`); an unknown one throws a `validation` error.
 */
export function inputFields(tool: ToolId | Tool): InputFieldSpec[] {
  const id: unknown = typeof tool === 'object' && tool !== null ? tool.id : tool
  const row = typeof id === 'string' ? getTool(id) : undefined
  if (!row) throw validationError([issue('tool', 'unknown-tool')], typeof id === 'string' ? id : undefined)
  return Object.entries(row.input.shape).map(([name, schema]) => {
    const def = (schema as z.ZodMiniType)._zod.def
    const optional = def.type === 'optional'
    const inner = optional ? (def as z.core.$ZodOptionalDef).innerType._zod.def : def
    const type = inner.type === 'number' ? 'number' : inner.type === 'custom' ? 'file' : 'text'
    return { name: name as InputField, type, required: !optional }
  })
}

/** The catalogue row of `id`, or undefined for an unknown id. */
export function getTool<T extends ToolId>(id: T): ToolOf<T>
export function getTool(id: string): Tool | undefined
export function getTool(id: string): Tool | undefined {
  return TOOLS.find((tool) => tool.id === id)
}
