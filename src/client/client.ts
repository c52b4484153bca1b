import type { CallOptions, Job, JobHandle, Result, ToolDefinition } from './definition.js'
import { abortError, issue, ToolsError, validationError, type ValidationIssue } from './errors.js'
import { newIdempotencyKey } from './ids.js'
import { defaultInterpretation, failedJobError, type Interpretation } from './interpret.js'
import { asRecord } from './record.js'
import { errorFromResponse, malformed, readBody, requestIdOf } from './response.js'
import { backoff, retryPolicy, sleep, type RetryOptions } from './retry.js'
import { chooseTransport } from './transport.js'

export interface ToolsClientOptions {
  /** The service's base address, ending in `/v1`. A relative one resolves against the page. */
  baseUrl: string
  /** Sent as `Authorization: Bearer …`; a function is called before every request. Omit it behind a proxy that adds it. */
  apiKey?: string | (() => string | Promise<string>)
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch
  /** Backoff settings, or `false` for no retries. */
  retry?: RetryOptions | false
  /** Extra headers on every request. */
  headers?: Record<string, string>
  /** Milliseconds between job polls. Default 3000. */
  pollInterval?: number
  /** Multipart part name of the file, per tool id, where the service expects another. */
  fileFields?: Record<string, string>
  /** Replaces the kit's reading of what the spec leaves unshown. */
  interpret?: Partial<Interpretation>
}

export const DEFAULT_POLL_INTERVAL = 3000

/** Which failures a request may try again: every transient one, only 429, or none. */
type RetryOn = 'transient' | 'rate-limit'

interface Send {
  method: 'GET' | 'POST'
  url: string
  body?: BodyInit
  contentType?: string
  idempotencyKey?: string
  retryOn: RetryOn
  call: boolean
  signal?: AbortSignal
  onUploadProgress?: CallOptions['onUploadProgress']
}

/** The untyped client over any tool table; `createToolsClient` binds it to the catalogue. */
export function createClient(tools: readonly ToolDefinition[], options: ToolsClientOptions) {
  const byId = new Map(tools.map((tool) => [tool.id, tool]))
  const interpret: Interpretation = { ...defaultInterpretation, ...options.interpret }
  const policy = retryPolicy(options.retry)
  const pollInterval = options.pollInterval ?? DEFAULT_POLL_INTERVAL

  // Resolved per call, so a relative base works in browsers and importing stays DOM-free.
  const base = () => {
    const page = (globalThis as { location?: { href: string } }).location?.href
    try {
      return new URL(options.baseUrl, page).href.replace(/\/+$/, '')
    } catch {
      throw validationError([issue('baseUrl', 'invalid')])
    }
  }

  function definition(id: string): ToolDefinition {
    const tool = byId.get(id)
    if (!tool) throw validationError([issue('tool', 'unknown-tool')], id)
    return tool
  }

  async function headers(send: Send): Promise<Headers> {
    const result = new Headers(options.headers)
    const key = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey
    if (key) result.set('Authorization', `Bearer ${key}`)
    if (send.contentType) result.set('Content-Type', send.contentType)
    if (send.idempotencyKey) result.set('Idempotency-Key', send.idempotencyKey)
    result.set('Accept', 'application/json, */*')
    return result
  }

  /** One logical request, retried as its kind allows; resolves with a 2xx response. */
  async function send(tool: ToolDefinition, request: Send): Promise<Response> {
    const transport = chooseTransport(request, options.fetch)
    const name = tool.id || undefined
    for (let attempt = 0; ; attempt++) {
      if (request.signal?.aborted) throw abortError(name, request.signal.reason)
      let response: Response
      try {
        response = await transport({
          method: request.method,
          url: request.url,
          headers: await headers(request),
          body: request.body,
          signal: request.signal,
          onUploadProgress: request.onUploadProgress,
        })
      } catch (cause) {
        if (request.signal?.aborted) throw abortError(name, cause)
        const error = new ToolsError('network', 'The service could not be reached.', { tool: name, cause })
        if (request.retryOn !== 'transient' || attempt >= policy.retries) throw error
        await sleep(backoff(attempt, policy), request.signal, name)
        continue
      }
      if (response.ok) return response
      const error = errorFromResponse(response, await readBody(response), tool, interpret, request.call)
      const retryable =
        error.kind === 'rate-limit' || (error.kind === 'server' && request.retryOn === 'transient')
      if (!retryable || attempt >= policy.retries) throw error
      const wait = error.kind === 'rate-limit' ? error.retryAfter : undefined
      if (wait !== undefined && wait > policy.maxRetryAfter) throw error
      await sleep(wait ?? backoff(attempt, policy), request.signal, name)
    }
  }

  async function validate(tool: ToolDefinition, input: unknown): Promise<Record<string, unknown>> {
    const result = await tool.input['~standard'].validate(input)
    if (!result.issues) return result.value as Record<string, unknown>
    const byField = new Map<string, ValidationIssue>()
    for (const problem of result.issues) {
      const field = (problem.path ?? [])
        .map((segment) => String(typeof segment === 'object' ? segment.key : segment))
        .join('.')
      if (!byField.has(field || 'input')) byField.set(field || 'input', issue(field || 'input', problem.message))
    }
    throw validationError([...byField.values()], tool.id)
  }

  function encode(tool: ToolDefinition, value: Record<string, unknown>): Pick<Send, 'body' | 'contentType'> {
    if (tool.body === 'json') return { body: JSON.stringify(value), contentType: 'application/json' }
    const { file, ...rest } = value as { file: Blob }
    const form = new FormData()
    form.append('data', JSON.stringify(rest))
    const name = typeof (file as File).name === 'string' && (file as File).name ? (file as File).name : 'upload'
    form.append(options.fileFields?.[tool.id] ?? tool.fileField ?? 'file', file, name)
    // No Content-Type: the transport sets multipart/form-data with its boundary.
    return { body: form }
  }

  /** POSTs a tool call; validation first, so bad input never reaches the service. */
  async function call(tool: ToolDefinition, input: unknown, opts: CallOptions): Promise<{ response: Response; body: unknown }> {
    const value = await validate(tool, input)
    const response = await send(tool, {
      method: 'POST',
      url: base() + tool.path,
      ...encode(tool, value),
      idempotencyKey: opts.idempotencyKey ?? newIdempotencyKey(),
      // A lost synchronous answer may already be billed: only a 429 (never processed) is retried.
      retryOn: tool.mode === 'deferred' ? 'transient' : 'rate-limit',
      call: true,
      signal: opts.signal,
      onUploadProgress: opts.onUploadProgress,
    })
    return { response, body: await readBody(response) }
  }

  function toJob(tool: ToolDefinition, jobId: string, body: unknown, status: number, requestId?: string): Job {
    const record = asRecord(body)
    if (typeof record?.status !== 'string') throw malformed(tool, 'no status', body, status)
    return {
      tool: tool.id,
      jobId,
      status: record.status,
      phase: interpret.phase(record.status),
      requestId: requestIdOf(body) ?? requestId,
      progress: interpret.progress(body),
      data: body,
      artifacts: interpret.artifacts(body, `${base()}/artifacts/`),
    }
  }

  function checkJobId(tool: ToolDefinition, jobId: unknown): string {
    if (typeof jobId !== 'string' || jobId === '') throw validationError([issue('jobId', 'required')], tool.id)
    return jobId
  }

  async function start(id: string, input: unknown, opts: CallOptions = {}): Promise<JobHandle> {
    const tool = definition(id)
    if (tool.mode !== 'deferred') throw validationError([issue('tool', 'sync-tool')], id)
    const { response, body } = await call(tool, input, opts)
    const { jobId, status, requestId } = asRecord(body) ?? {}
    if (typeof jobId !== 'string' || !jobId || typeof status !== 'string' || typeof requestId !== 'string') {
      throw malformed(tool, 'a 202 needs jobId, status and requestId', body, response.status)
    }
    return { tool: tool.id, jobId, status, requestId }
  }

  async function job(id: string, jobId: string, opts: CallOptions = {}): Promise<Job> {
    const tool = definition(id)
    checkJobId(tool, jobId)
    const response = await send(tool, {
      method: 'GET',
      url: `${base()}${tool.path}/jobs/${encodeURIComponent(jobId)}`,
      retryOn: 'transient',
      call: false,
      signal: opts.signal,
    })
    return toJob(tool, jobId, await readBody(response), response.status)
  }

  /** Polls until a terminal status; `firstDelay` skips a read whose answer is already known. */
  async function poll(id: string, jobId: string, opts: CallOptions, firstDelay: number, requestId?: string): Promise<Job> {
    const tool = definition(id)
    checkJobId(tool, jobId)
    const interval = opts.pollInterval ?? pollInterval
    for (let delay = firstDelay; ; delay = interval) {
      if (delay > 0) await sleep(delay, opts.signal, tool.id)
      const current = await job(id, jobId, opts)
      if (!current.requestId && requestId) current.requestId = requestId
      opts.onJob?.(current)
      if (current.phase === 'succeeded') return current
      if (current.phase === 'failed') throw failedJobError(current, interpret)
    }
  }

  /** A job exists from here on: every failure names it, so `wait(tool, jobId)` can take it up again. */
  function follow(id: string, jobId: string, opts: CallOptions, firstDelay: number, requestId?: string): Promise<Job> {
    return poll(id, jobId, opts, firstDelay, requestId).catch((error: unknown) => {
      if (error instanceof ToolsError && !error.jobId) {
        throw new ToolsError(error.kind, error.message, { ...error, tool: id, jobId, cause: error.cause })
      }
      throw error
    })
  }

  async function run(id: string, input: unknown, opts: CallOptions = {}): Promise<Result | Job> {
    const tool = definition(id)
    if (tool.mode === 'deferred') {
      const handle = await start(id, input, opts)
      return follow(id, handle.jobId, opts, opts.pollInterval ?? pollInterval, handle.requestId)
    }
    const { response, body } = await call(tool, input, opts)
    return {
      tool: tool.id,
      data: body,
      artifacts: interpret.artifacts(body, `${base()}/artifacts/`),
      requestId: requestIdOf(body, response.headers),
    }
  }

  async function artifact(url: string, opts: Pick<CallOptions, 'signal'> = {}): Promise<Blob> {
    const root = base()
    let target: URL
    try {
      target = new URL(url, root + '/')
    } catch {
      throw validationError([issue('url', 'foreign-url')])
    }
    // The key goes to the service's origin only.
    if (target.origin !== new URL(root).origin) throw validationError([issue('url', 'foreign-url')])
    const response = await send(ARTIFACT_DEFINITION, {
      method: 'GET',
      url: target.href,
      retryOn: 'transient',
      call: false,
      signal: opts.signal,
    })
    return response.blob()
  }

  return {
    baseUrl: options.baseUrl,
    pollInterval,
    interpret,
    run,
    start,
    job,
    wait: (id: string, jobId: string, opts: CallOptions = {}) => follow(id, jobId, opts, 0),
    artifact,
    /** The issues `run` would refuse `input` for (none when valid), without sending anything. */
    validate: async (id: string, input: unknown): Promise<ValidationIssue[]> => {
      try {
        await validate(definition(id), input)
        return []
      } catch (error) {
        if (error instanceof ToolsError) return error.issues
        throw error
      }
    },
  }
}

/** Artifact downloads belong to no tool, so their errors name none. */
const ARTIFACT_DEFINITION: ToolDefinition = {
  id: '',
  path: '/artifacts',
  mode: 'sync',
  body: 'json',
  scope: null,
  input: { '~standard': { version: 1, vendor: 'tools', validate: (value) => ({ value }) } },
}

export type UntypedToolsClient = ReturnType<typeof createClient>
