import type { Job, Result, ToolDefinition } from '../client/index.js'
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
 * its `body` and `listing`; every other field passes through. Each row has its title and
 * description in `TOOL_TEXTS` below (the compiler says when one is missing).
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
 * The tools of spec part 4: the single source of every per-tool fact in the kit (a new tool is a
 * row here and its simulated result in src/mock/results.ts; CONTRIBUTING.md says what follows).
 * Each row's `input` is a Standard Schema whose checks (zod/mini) load in a chunk of their own
 * at the first validation, so a page that has not checked an input yet carries none of them.
 */
export const TOOLS = ROWS.map((row) => ({ ...row, path: `/${row.id}`, input: lazyInput(row) })) as unknown as WithInputs<typeof ROWS>

export type Tool = (typeof TOOLS)[number]
export type ToolId = Tool['id']

/** What the components call a tool: its name and a line on what it does. */
export interface ToolText {
  title: string
  description: string
}

/**
 * Each row's title and description in English: the components' defaults, which a locale may
 * replace (`Messages['tools']`). Beside the rows rather than in them, so a page that names no
 * tool (the client alone, a hook) does not carry them.
 */
export const TOOL_TEXTS: Record<ToolId, ToolText> = {
  'valuation/express': { title: 'Express valuation', description: 'A quick market value estimate.' },
  'valuation/report': { title: 'Valuation report', description: 'A full, detailed valuation report.' },
  'valuation/rent': { title: 'Rent estimate', description: 'The expected rent by property type, area and city.' },
  'valuation/review': { title: 'Valuation review', description: 'An expert check of your valuation document.' },
  'content/generate': { title: 'Listing content', description: 'Marketing copy for a listing.' },
  'text/generate': { title: 'Text writer', description: 'Ready-to-use text from a short brief.' },
  'avatar/video': { title: 'Avatar video', description: 'A virtual presenter introduces the property.' },
  'video/create': { title: 'Property video', description: 'A finished video from your footage.' },
  'photo/enhance': { title: 'Photo enhancement', description: 'Better light, colour and sharpness.' },
  'floorplan/create': { title: 'Floor plan', description: 'A clean plan from a sketch, photo or PDF.' },
  'draft/extract': { title: 'Document extraction', description: 'Property details read from a document.' },
  'site/create': { title: 'Property website', description: 'A web page for a listing or collection.' },
  'pdf/create': { title: 'PDF brochure', description: 'A printable PDF for a listing or collection.' },
}

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
 * result bodies and leaves most input fields open): `results` (each tool's answer, as `data`: a
 * synchronous tool's response body, a deferred tool's whole finished job body, its output under `result`)
 * and `inputs` (each tool's fields; a key not declared is then a type error). Undeclared tools
 * stay `unknown` and open.
 *
 * @example
 * declare module '@cabinet/tools-react' {
 *   interface Register {
 *     results: { 'valuation/rent': { rent: { monthly: number; currency: string }; city: string } }
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
