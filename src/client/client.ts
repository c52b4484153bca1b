import type { CallOptions, Job, JobHandle, Presence, Result, ToolDefinition, Waiting } from './definition.js'
import {
  abortError,
  issue,
  toToolsError,
  ToolsError,
  validationError,
  type ValidationIssue,
} from './errors.js'
import { newIdempotencyKey } from './ids.js'
import { defaultInterpretation, failedJobError, type Interpretation } from './interpret.js'
import { dispositionFileName } from './media.js'
import { asRecord } from './record.js'
import { errorFromResponse, malformed, readBody, requestIdOf } from './response.js'
import { createPacer, hashText, type Pacer } from './pacer.js'
import { pagePresence } from './presence.js'
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
  /** Milliseconds between job polls while a job is young; polls slow as it ages. Default 3000. */
  pollInterval?: number
  /** How long a job is polled before failing with `timeout`, in ms. Default an hour. */
  pollTimeout?: number
  /** Multipart part name of the file, per tool id, where the service expects another. */
  fileFields?: Record<string, string>
  /** Replaces the kit's reading of what the spec leaves unshown. */
  interpret?: Partial<Interpretation>
}

export const DEFAULT_POLL_INTERVAL = 3000

/** Which failures a request may try again: every transient one, only 429, or none. */
type RetryOn = 'transient' | 'rate-limit'

/** A hidden page polls twice a minute at most. */
const HIDDEN_POLL = 30_000
/** How long a job is polled before `timeout`, unless the call says otherwise. */
export const DEFAULT_POLL_TIMEOUT = 3_600_000

/** Polls slow as a job ages: a quarter of its age, from a third of `pollInterval` up to ten times it. */
export function pollDelay(age: number, base: number, hidden: boolean): number {
  const delay = Math.min(base * 10, Math.max(base / 3, age / 4))
  return hidden ? Math.max(delay, HIDDEN_POLL) : delay
}

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
  onWait?: CallOptions['onWait']
  presence?: Presence
}

/** The untyped client over any tool table; `createToolsClient` binds it to the catalogue. */
export function createClient(tools: readonly ToolDefinition[], options: ToolsClientOptions) {
  const byId = new Map(tools.map((tool) => [tool.id, tool]))
  const interpret: Interpretation = { ...defaultInterpretation, ...options.interpret }
  const policy = retryPolicy(options.retry)
  const pollInterval = options.pollInterval ?? DEFAULT_POLL_INTERVAL
  const pollTimeout = options.pollTimeout ?? DEFAULT_POLL_TIMEOUT

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

  async function headers(send: Send, key: string | undefined): Promise<Headers> {
    const result = new Headers(options.headers)
    if (key) result.set('Authorization', `Bearer ${key}`)
    if (send.contentType) result.set('Content-Type', send.contentType)
    if (send.idempotencyKey) result.set('Idempotency-Key', send.idempotencyKey)
    result.set('Accept', 'application/json, */*')
    return result
  }

  // One pacer per key, named by a hash: the key itself is kept nowhere.
  const pacers = new Map<string, Pacer>()
  function pacerFor(key: string | undefined): Pacer {
    const name = `@cabinet/tools-react:${hashText(`${base()}\n${key ?? ''}`)}`
    let pacer = pacers.get(name)
    if (!pacer) pacers.set(name, (pacer = createPacer(name)))
    return pacer
  }

  /**
   * One logical request; resolves with a 2xx response. It waits its turn with every request of
   * its key, and retries as its kind allows: a 429 while its wait budget lasts, a 5xx or a lost
   * connection `retries` times (a lost one waits for the device to come online).
   */
  async function send(tool: ToolDefinition, request: Send): Promise<Response> {
    const transport = chooseTransport(request, options.fetch)
    const name = tool.id || undefined
    const presence = request.presence ?? pagePresence
    const deadline = Date.now() + policy.maxWait
    let shown: Waiting | null = null
    const wait = (next: Waiting | null) => {
      // Estimates move by milliseconds as the line moves: only a real change is told.
      const same = next?.reason === shown?.reason && Math.abs((next?.until ?? 0) - (shown?.until ?? 0)) < 1000
      if (same && next?.attempt === shown?.attempt) return
      shown = next
      request.onWait?.(next)
    }
    let failures = 0
    let refusals = 0
    try {
      for (;;) {
        if (request.signal?.aborted) throw abortError(name, request.signal.reason)
        const key = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey
        const pacer = pacerFor(key)
        await pacer.take(request.call, {
          signal: request.signal,
          tool: name,
          deadline,
          onHold: (until) => wait({ reason: 'rate-limit', until }),
          expire: (until) =>
            new ToolsError('rate-limit', `${name ?? 'artifact'}: 429 rate-limit: paused past the wait budget`, {
              status: 429,
              tool: name,
              retryAfter: until - Date.now(),
            }),
        })
        wait(null)
        let response: Response
        try {
          response = await transport({
            method: request.method,
            url: request.url,
            headers: await headers(request, key),
            body: request.body,
            signal: request.signal,
            onUploadProgress: request.onUploadProgress,
          })
        } catch (cause) {
          if (request.signal?.aborted) throw abortError(name, cause)
          const error = new ToolsError('network', 'The service could not be reached.', { tool: name, cause })
          if (request.retryOn !== 'transient') throw error
          if (presence.offline() && Date.now() < deadline) {
            // Offline is not the service's fault: wait for the connection, within the budget.
            wait({ reason: 'offline' })
            await sleep(deadline - Date.now(), request.signal, name, presence.subscribe)
            continue
          }
          if (failures >= policy.retries) throw error
          const delay = backoff(failures++, policy)
          wait({ reason: 'retrying', until: Date.now() + delay, attempt: failures })
          await sleep(delay, request.signal, name, presence.subscribe)
          continue
        }
        if (response.ok) {
          pacer.answer(request.call)
          return response
        }
        const error = errorFromResponse(response, await readBody(response), tool, interpret, request.call)
        if (error.kind === 'rate-limit') {
          const delay = error.retryAfter ?? backoff(refusals++, policy)
          pacer.answer(request.call, delay)
          if (delay > policy.maxRetryAfter || Date.now() + delay > deadline) throw error
          // The pacer holds this request, with every other of the key, until the pause is over.
          continue
        }
        pacer.answer(request.call)
        if (error.kind !== 'server' || request.retryOn !== 'transient' || failures >= policy.retries) throw error
        const delay = backoff(failures++, policy)
        wait({ reason: 'retrying', until: Date.now() + delay, attempt: failures })
        await sleep(delay, request.signal, name)
      }
    } finally {
      wait(null)
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
      onWait: opts.onWait,
      presence: opts.presence,
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
      onWait: opts.onWait,
      presence: opts.presence,
    })
    return toJob(tool, jobId, await readBody(response), response.status)
  }

  /**
   * Polls until a terminal status, slower as the job ages and while the page is hidden, at once
   * when it is shown again or the connection returns; `fresh` skips the read whose answer the
   * POST just gave. Past the poll timeout it fails with `timeout`, naming the job to wait for again.
   */
  async function poll(id: string, jobId: string, opts: CallOptions, fresh: boolean, requestId?: string): Promise<Job> {
    const tool = definition(id)
    checkJobId(tool, jobId)
    const interval = opts.pollInterval ?? pollInterval
    const presence = opts.presence ?? pagePresence
    const started = Date.now()
    const deadline = started + (opts.pollTimeout ?? pollTimeout)
    for (let read = !fresh; ; read = false) {
      if (!read) {
        const delay = pollDelay(Date.now() - started, interval, presence.hidden())
        await sleep(Math.min(delay, deadline - Date.now()), opts.signal, tool.id, presence.subscribe)
      }
      const current = await job(id, jobId, opts)
      if (!current.requestId && requestId) current.requestId = requestId
      opts.onJob?.(current)
      if (current.phase === 'succeeded') return current
      if (current.phase === 'failed') throw failedJobError(current, interpret)
      if (Date.now() >= deadline) {
        throw new ToolsError('timeout', `${tool.id}: the job ${jobId} did not finish in time; wait for it again.`, {
          tool: tool.id,
          jobId,
          requestId: current.requestId,
          body: current.data,
        })
      }
    }
  }

  /** A job exists from here on: every failure names it, so `wait(tool, jobId)` can take it up again. */
  function follow(id: string, jobId: string, opts: CallOptions, fresh: boolean, requestId?: string): Promise<Job> {
    return poll(id, jobId, opts, fresh, requestId).catch((error: unknown) => {
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
      return follow(id, handle.jobId, opts, true, handle.requestId)
    }
    const { response, body } = await call(tool, input, opts)
    return {
      tool: tool.id,
      data: body,
      artifacts: interpret.artifacts(body, `${base()}/artifacts/`),
      requestId: requestIdOf(body, response.headers),
    }
  }

  async function artifactFile(url: string, opts: Pick<CallOptions, 'signal'> = {}): Promise<ArtifactFile> {
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
    return { blob: await response.blob(), filename: dispositionFileName(response.headers.get('content-disposition')) }
  }

  /** Every public call rejects with a ToolsError, whatever failed inside (an override, a bug): never a bare TypeError. */
  const typed =
    <A extends [string, ...unknown[]], R>(method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      method(...args).catch((error: unknown) => {
        throw toToolsError(error, byId.has(args[0]) ? args[0] : undefined)
      })

  return {
    baseUrl: options.baseUrl,
    pollInterval,
    interpret,
    run: typed(run),
    start: typed(start),
    job: typed(job),
    wait: typed((id: string, jobId: string, opts: CallOptions = {}) => follow(id, jobId, opts, false)),
    artifact: typed(async (url: string, opts: Pick<CallOptions, 'signal'> = {}): Promise<Blob> => (await artifactFile(url, opts)).blob),
    artifactFile: typed(artifactFile),
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

/** A downloaded result file, with the name the service gave it in `Content-Disposition`, if any. */
export interface ArtifactFile {
  blob: Blob
  /** As sent: clean it before showing or saving it (the components do). */
  filename?: string
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
