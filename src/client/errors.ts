export type ToolsErrorKind =
  | 'validation'
  | 'bad-request'
  | 'unauthorized'
  | 'billing'
  | 'scope'
  | 'listing-access'
  | 'not-found'
  | 'rate-limit'
  | 'server'
  | 'network'
  | 'job-failed'
  | 'aborted'
  | 'timeout'
  /** Anything thrown that is not the service's answer nor the network (a bug, a failing override): its own kind, never mistaken for `network`. */
  | 'unexpected'

/** English text for each validation code; UIs translate by code. */
export const VALIDATION_MESSAGES = {
  required: 'Required.',
  'not-a-string': 'Enter text.',
  'not-a-number': 'Enter a number.',
  'not-positive': 'Enter a number above zero.',
  'not-a-file': 'Choose a file.',
  'listing-missing': 'Give objectId or collectionId.',
  'listing-both': 'Give objectId or collectionId, not both.',
  'not-an-object': 'Enter a JSON object of fields.',
  'unknown-tool': 'No tool has this name.',
  'sync-tool': 'This tool answers at once: call run().',
  'foreign-url': 'Not a link on the service: the key is not sent there.',
  invalid: 'Not valid.',
} as const

export type ValidationCode = keyof typeof VALIDATION_MESSAGES

export interface ValidationIssue {
  /** The input field at fault (`file` for the upload); dotted for nested fields. */
  field: string
  code: ValidationCode
  message: string
}

export interface ToolsErrorInit {
  status?: number
  tool?: string
  jobId?: string
  requestId?: string
  body?: unknown
  issues?: ValidationIssue[]
  scope?: string
  retryAfter?: number
  cause?: unknown
}

/** The fields a kind always has, beyond those of every kind. */
interface KindFields {
  /** The scope the key lacks (from the catalogue). */
  scope: { readonly scope: string }
  /** Milliseconds to wait before trying again. */
  'rate-limit': { readonly retryAfter: number }
  /** The job followed too long: `client.wait(tool, jobId)` takes it up again. */
  timeout: { readonly jobId: string }
}

/** What one kind's constructor must be given. */
type InitOf<K extends ToolsErrorKind> = K extends keyof KindFields ? [init: ToolsErrorInit & KindFields[K]] : [init?: ToolsErrorInit]

// The runtime class. Its public type is the union `ToolsError` below, which types each kind's own fields.
class ToolsErrorClass extends Error {
  override readonly name = 'ToolsError'
  // Declared, not initialised: the constructor sets each one, so the output need not list them twice.
  declare readonly kind: ToolsErrorKind
  /** HTTP status, where the service answered. */
  declare readonly status?: number
  declare readonly tool?: string
  /** The job this error concerns, once one exists: `client.wait(tool, jobId)` takes it up again. */
  declare readonly jobId?: string
  declare readonly requestId?: string
  /** The response (or job) body as received: parsed JSON, else text. */
  declare readonly body?: unknown
  /** One per field, for `validation`; empty for the other kinds. */
  declare readonly issues: ValidationIssue[]
  /** The scope the key lacks, for `scope`. */
  declare readonly scope?: string
  /** Milliseconds to wait before trying again: for `rate-limit`, and for `billing` when a proxy's cap says when it ends. */
  declare readonly retryAfter?: number

  constructor(kind: ToolsErrorKind, message: string, init: ToolsErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause })
    this.kind = kind
    this.status = init.status
    this.tool = init.tool
    this.jobId = init.jobId
    this.requestId = init.requestId
    this.body = init.body
    this.issues = init.issues ?? []
    this.scope = init.scope
    this.retryAfter = init.retryAfter
  }
}

/**
 * The error of one kind: `ToolsErrorOf<'scope'>` has `scope: string`, `ToolsErrorOf<'rate-limit'>`
 * `retryAfter: number` (`ToolsErrorOf<'billing'>` `number | undefined`), `ToolsErrorOf<'timeout'>` `jobId: string`. An interface over the class, so
 * `instanceof` narrows to it.
 */
export interface ToolsErrorOf<K extends ToolsErrorKind> extends ToolsErrorClass {
  readonly kind: K
  readonly scope: K extends 'scope' ? string : undefined
  // A proxy's spend cap (402) says when its window ends; the service's own 402 does not.
  readonly retryAfter: K extends 'rate-limit' ? number : K extends 'billing' ? number | undefined : undefined
  readonly jobId: K extends 'timeout' ? string : string | undefined
}

/** Every failure of the kit: a union told apart by `kind`, each kind with its own fields typed. */
export type ToolsError = { [K in ToolsErrorKind]: ToolsErrorOf<K> }[ToolsErrorKind]

export interface ToolsErrorConstructor {
  new <K extends ToolsErrorKind>(kind: K, message: string, ...init: InitOf<K>): K extends ToolsErrorKind ? ToolsErrorOf<K> : never
  readonly prototype: ToolsError
}

/** Every failure of the kit, told apart by `kind`; `instanceof ToolsError` and `isToolsError` narrow to the union. */
export const ToolsError = ToolsErrorClass as unknown as ToolsErrorConstructor

export function isToolsError(value: unknown): value is ToolsError {
  return value instanceof ToolsError
}

export function validationError(issues: ValidationIssue[], tool?: string): ToolsError {
  const list = issues.map((issue) => `${issue.field}: ${issue.message}`).join('; ')
  return new ToolsError('validation', `Invalid input${tool ? ` for ${tool}` : ''}: ${list}`, {
    tool,
    issues,
  })
}

export function issue(field: string, code: string): ValidationIssue {
  const known = (code in VALIDATION_MESSAGES ? code : 'invalid') as ValidationCode
  return { field, code: known, message: VALIDATION_MESSAGES[known] }
}

export function abortError(tool?: string, cause?: unknown): ToolsError {
  return new ToolsError('aborted', 'The call was cancelled.', { tool, cause })
}

/** `error` as a ToolsError: itself when it is one, else kind `unexpected` (a bug, a failing override) with it as `cause`. */
export function toToolsError(error: unknown, tool?: string): ToolsError {
  if (error instanceof ToolsError) return error
  return new ToolsError('unexpected', error instanceof Error ? error.message : String(error), { tool, cause: error })
}
