import type { CallOptions, Job, JobHandle, Result, ToolDefinition, Usage, Waiting } from './definition.js'
import {
  abortError,
  issue,
  isToolsError,
  toToolsError,
  ToolsError,
  validationError,
  type ValidationIssue,
} from './errors.js'
import { newIdempotencyKey } from './ids.js'
import { defaultInterpretation, jobFailedError, type Interpretation } from './interpret.js'
import type { EventHub, JobWatcher } from './events.js'
import { dispositionFileName } from './media.js'
import { asRecord } from './record.js'
import { errorFromResponse, malformed, readBody, requestIdOf } from './response.js'
import { createPacer, type Pacer } from './pacer.js'
import { pagePresence } from './presence.js'
import { backoff, retryPolicy, sleep, type RetryOptions } from './retry.js'
import { transmit } from './transport.js'
import { resolveBaseUrl } from './baseUrl.js'
import type { JournalStore, WebStorage } from './runs/journal.js'
import { fingerprint } from './runs/fingerprint.js'

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
  /**
   * Where `run` journals a deferred tool's run before its POST leaves (a Web Storage such as
   * localStorage, a file-backed one, or any `JournalStore`), so `resume()` finishes it after a crash.
   */
  journal?: JournalStore | WebStorage
  /** Behind a proxy, who the runs are for: the journal keeps each person's apart. */
  user?: string
}

export const DEFAULT_POLL_INTERVAL = 3000

/** A hidden page polls twice a minute at most. */
const HIDDEN_POLL = 30_000
/** How long a job is polled before `timeout`, unless the call says otherwise. */
export const DEFAULT_POLL_TIMEOUT = 3_600_000

/**
 * Polls slow as a job ages: a tenth of its age, from a third of `pollInterval` up to 10/3 of it
 * (1 s to 10 s by default). The end is seen within max(1 s, 10% of the job's time), never more
 * than 10 s late, in under 100 reads for a 10-minute job.
 */
export function pollDelay(age: number, base: number, hidden: boolean): number {
  const delay = Math.min((base * 10) / 3, Math.max(base / 3, age / 10))
  return hidden ? Math.max(delay, HIDDEN_POLL) : delay
}

/** A job followed on the proxy's event stream is still read now and then, should an event be lost on the way. */
const SAFETY_READ = 60_000
/** A job's first state comes on the stream as it joins; should it not (an older proxy, a stream that could not take the job), it is read after this. */
const FIRST_PUSH = 5_000

/** What a tool call adds to a request: it is a POST, with a body and an Idempotency-Key. */
interface Post {
  body: BodyInit
  contentType?: string
  idempotencyKey: string
  onUploadProgress?: CallOptions['onUploadProgress']
}

/** The untyped client over any tool table; `createToolsClient` binds it to the catalogue. */
export function createClient(tools: readonly ToolDefinition[], options: ToolsClientOptions) {
  const byId = new Map(tools.map((tool) => [tool.id, tool]))
  const interpret: Interpretation = { ...defaultInterpretation, ...options.interpret }
  const policy = retryPolicy(options.retry)
  const pollInterval = options.pollInterval ?? DEFAULT_POLL_INTERVAL
  const pollTimeout = options.pollTimeout ?? DEFAULT_POLL_TIMEOUT

  // Resolved per call, so a relative base works in browsers and importing stays DOM-free.
  const base = () => resolveBaseUrl(options.baseUrl)

  const linksIn = (body: unknown) => interpret.artifacts(body, `${base()}/artifacts/`)

  function definition(id: string): ToolDefinition {
    const tool = byId.get(id)
    if (!tool) throw validationError([issue('tool', 'unknown-tool')], id)
    return tool
  }

  function headers(key: string | undefined, post: Post | undefined, named = false): Headers {
    const result = new Headers(options.headers)
    if (key) result.set('Authorization', `Bearer ${key}`)
    if (post?.contentType) result.set('Content-Type', post.contentType)
    if (post?.idempotencyKey) result.set('Idempotency-Key', post.idempotencyKey)
    // Behind a proxy with a stream, calls and the stream name this page: its stream, on its way,
    // takes the jobs the page starts meanwhile (and no other tab's).
    if (streamNamed && (post || named)) result.set('X-Tools-Page', page)
    result.set('Accept', 'application/json, */*')
    return result
  }

  const resolveKey = async () => (typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey)
  // Behind a proxy that names an event stream, jobs are pushed to the page instead of polled. The
  // stream's code loads only then: a page that talks to the service directly never carries it.
  let streamNamed: string | undefined
  const page = Math.random().toString(36).slice(2, 14)
  let hub: Promise<EventHub> | undefined
  const offerStream = (response: Response) => {
    const address = response.headers.get('x-tools-events')
    if (!address || address === streamNamed) return
    streamNamed = address
    void eventHub().then((loaded) => loaded.offer(address, base()))
  }
  const eventHub = () =>
    (hub ??= import('./events.js').then(({ createEventHub }) =>
      createEventHub({ fetch: options.fetch, headers: async () => headers(await resolveKey(), undefined, true) }),
    ))

  // One pacer per key, named by its fingerprint: the key itself is kept nowhere.
  const pacers = new Map<string, Pacer>()
  function pacerFor(key: string | undefined): Pacer {
    const name = `@cabinet/tools-react:${fingerprint(options.baseUrl, key)}`
    let pacer = pacers.get(name)
    if (!pacer) pacers.set(name, (pacer = createPacer(name)))
    return pacer
  }

  /**
   * One logical request: a tool call when `post` is given, else a free GET (of a job, or of an
   * artifact, which belongs to no tool); resolves with a 2xx response. It waits its turn with
   * every request of its key, and retries as its kind allows: a 429 while its wait budget lasts,
   * a 5xx or a lost connection `retries` times (a lost one waits for the device to come online).
   */
  async function send(
    tool: ToolDefinition | undefined,
    url: string,
    { signal, onWait, presence = pagePresence }: Pick<CallOptions, 'signal' | 'onWait' | 'presence'>,
    post?: Post,
  ): Promise<Response> {
    const isCall = !!post
    // A lost synchronous answer may already be billed: only a 429 (never processed) is retried.
    const transient = !isCall || tool?.mode === 'deferred'
    const name = tool?.id
    const deadline = Date.now() + policy.maxWait
    let shown: Waiting | null = null
    const wait = (next: Waiting | null) => {
      // Estimates move by milliseconds as the line moves: only a real change is told.
      const same = next?.reason === shown?.reason && Math.abs((next?.until ?? 0) - (shown?.until ?? 0)) < 1000
      if (same && next?.attempt === shown?.attempt) return
      shown = next
      onWait?.(next)
    }
    let failures = 0
    let refusals = 0
    try {
      for (;;) {
        if (signal?.aborted) throw abortError(name, signal.reason)
        const key = await resolveKey()
        const pacer = pacerFor(key)
        await pacer.take(isCall, {
          signal,
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
        let outcome: Response | ToolsError
        try {
          outcome = await transmit(
            {
              method: isCall ? 'POST' : 'GET',
              url,
              headers: headers(key, post),
              body: post?.body,
              signal,
              onUploadProgress: post?.onUploadProgress,
            },
            options.fetch,
          )
        } catch (cause) {
          if (signal?.aborted) throw abortError(name, cause)
          outcome = new ToolsError('network', 'The service could not be reached.', { tool: name, cause })
        }
        let error: ToolsError
        if (isToolsError(outcome)) {
          error = outcome
          if (transient && presence.offline() && Date.now() < deadline) {
            // Offline is not the service's fault: wait for the connection, within the budget.
            wait({ reason: 'offline' })
            await sleep(deadline - Date.now(), signal, name, presence.subscribe)
            continue
          }
        } else {
          if (outcome.ok) {
            pacer.answer(isCall)
            return outcome
          }
          error = errorFromResponse(outcome, await readBody(outcome), interpret, tool, isCall, () => backoff(refusals++, policy))
          if (error.kind === 'rate-limit') {
            const delay = error.retryAfter
            pacer.answer(isCall, delay)
            if (delay > policy.maxRetryAfter || Date.now() + delay > deadline) throw error
            // The pacer holds this request, with every other of the key, until the pause is over.
            continue
          }
          pacer.answer(isCall)
          if (error.kind !== 'server') throw error
        }
        if (!transient || failures >= policy.retries) throw error
        const delay = backoff(failures++, policy)
        wait({ reason: 'retrying', until: Date.now() + delay, attempt: failures })
        // A lost connection is tried again at once when it returns or the page is shown.
        await sleep(delay, signal, name, error.kind === 'network' ? presence.subscribe : undefined)
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
      const field =
        (problem.path ?? []).map((segment) => String(typeof segment === 'object' ? segment.key : segment)).join('.') ||
        'input'
      if (!byField.has(field)) byField.set(field, issue(field, problem.message))
    }
    throw validationError([...byField.values()], tool.id)
  }

  function encode(tool: ToolDefinition, value: Record<string, unknown>): Pick<Post, 'body' | 'contentType'> {
    if (tool.body === 'json') return { body: JSON.stringify(value), contentType: 'application/json' }
    const { file, ...rest } = value as { file: Blob & { name?: string } }
    const form = new FormData()
    form.append('data', JSON.stringify(rest))
    form.append(options.fileFields?.[tool.id] ?? tool.fileField ?? 'file', file, file.name || 'upload')
    // No Content-Type: the transport sets multipart/form-data with its boundary.
    return { body: form }
  }

  /** POSTs a tool call; validation first, so bad input never reaches the service. */
  async function call(tool: ToolDefinition, input: unknown, opts: CallOptions): Promise<{ response: Response; body: unknown }> {
    const value = await validate(tool, input)
    const response = await send(tool, base() + tool.path, opts, {
      ...encode(tool, value),
      idempotencyKey: opts.idempotencyKey ?? newIdempotencyKey(),
      onUploadProgress: opts.onUploadProgress,
    })
    return { response, body: await readBody(response) }
  }

  async function start(id: string, input: unknown, opts: CallOptions = {}): Promise<JobHandle> {
    const tool = definition(id)
    if (tool.mode !== 'deferred') throw validationError([issue('tool', 'sync-tool')], id)
    // Sent naming this page (a stream was named before it): the page's stream carries it.
    const paged = streamNamed !== undefined
    const { response, body } = await call(tool, input, opts)
    offerStream(response)
    const { jobId, status, requestId } = asRecord(body) ?? {}
    if (typeof jobId !== 'string' || !jobId || typeof status !== 'string' || typeof requestId !== 'string') {
      throw malformed(tool, 'a 202 needs jobId, status and requestId', body, response.status)
    }
    // The proxy adds it to the page's stream, open or opening: no need to open another for it.
    if (paged) void eventHub().then((loaded) => loaded.started(tool.id, jobId))
    return { tool: tool.id, jobId, status, requestId }
  }

  /** A job's tool, its id checked: bad input is refused before any request. */
  function jobTool(id: string, jobId: string): ToolDefinition {
    const tool = definition(id)
    if (typeof jobId !== 'string' || jobId === '') throw validationError([issue('jobId', 'required')], id)
    return tool
  }

  async function job(id: string, jobId: string, opts: CallOptions = {}): Promise<Job> {
    const tool = jobTool(id, jobId)
    const response = await send(tool, `${base()}${tool.path}/jobs/${encodeURIComponent(jobId)}`, opts)
    offerStream(response)
    return jobOf(tool, jobId, response.status, await readBody(response))
  }

  /** A job read's answer (read, or pushed on the event stream) as a Job. */
  function jobOf(tool: ToolDefinition, jobId: string, httpStatus: number, body: unknown): Job {
    const status = asRecord(body)?.status
    if (typeof status !== 'string') throw malformed(tool, 'no status', body, httpStatus)
    return {
      tool: tool.id,
      jobId,
      status,
      phase: interpret.phase(status),
      requestId: requestIdOf(body),
      progress: interpret.progress(body),
      data: body,
      artifacts: linksIn(body),
    }
  }

  /**
   * Follows a job until a terminal status: on the proxy's event stream when it names one (with a
   * read now and then, and polling while the stream keeps failing); else by polling, slower as the
   * job ages and while the page is hidden, at once when it is shown again or the connection
   * returns. `fresh` says the POST's answer just gave the job's state. Until the state is known, a
   * job the stream carries waits for its first push (the job as it joins), and one it cannot carry
   * is read at once. Past the poll timeout it fails with `timeout`, naming the job to wait for again.
   * A job exists from here on: every failure names it, so `wait(tool, jobId)` can take it up again.
   */
  async function follow(id: string, jobId: string, opts: CallOptions, fresh: boolean, requestId?: string): Promise<Job> {
    let watcher: JobWatcher | undefined
    try {
      const tool = jobTool(id, jobId)
      const interval = opts.pollInterval ?? pollInterval
      const presence = opts.presence ?? pagePresence
      const started = Date.now()
      const deadline = started + (opts.pollTimeout ?? pollTimeout)
      for (let known = fresh; ; known = true) {
        let current: Job | undefined
        if (!watcher && streamNamed) watcher = (await eventHub()).watch(id, jobId)
        const pushed = watcher ? await watcher.next(Math.min(known ? SAFETY_READ : FIRST_PUSH, deadline - Date.now()), opts.signal) : 'poll'
        if (pushed === 'poll' && known) {
          const delay = pollDelay(Date.now() - started, interval, presence.hidden())
          await sleep(Math.min(delay, deadline - Date.now()), opts.signal, id, presence.subscribe)
        } else if (typeof pushed === 'object') {
          current = jobOf(tool, jobId, pushed.status, pushed.body)
        }
        if (!current) {
          watcher?.clear()
          current = await job(id, jobId, opts)
        }
        current.requestId ??= requestId
        opts.onJob?.(current)
        if (current.phase === 'succeeded') return current
        if (current.phase === 'failed') throw jobFailedError(current, interpret)
        if (Date.now() >= deadline) {
          throw new ToolsError('timeout', `${id}: the job ${jobId} did not finish in time; wait for it again.`, {
            tool: id,
            jobId,
            requestId: current.requestId,
            body: current.data,
          })
        }
      }
    } catch (error) {
      if (error instanceof ToolsError && !error.jobId) {
        throw new ToolsError(error.kind, error.message, { ...error, tool: id, jobId, cause: error.cause })
      }
      throw error
    } finally {
      watcher?.stop()
    }
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
      artifacts: linksIn(body),
      requestId: requestIdOf(body, response.headers),
    }
  }

  async function artifactFile(url: string, opts: Pick<CallOptions, 'signal'> = {}): Promise<ArtifactFile> {
    const root = base()
    let target: URL | undefined
    try {
      target = new URL(url, root + '/')
    } catch {
      // Not a link at all: refused as foreign below.
    }
    // The key goes to the service's origin only.
    if (target?.origin !== new URL(root).origin) throw validationError([issue('url', 'foreign-url')])
    const response = await send(undefined, target.href, { signal: opts.signal })
    return { blob: await response.blob(), fileName: dispositionFileName(response.headers.get('content-disposition')) }
  }

  /** Every public call rejects with a ToolsError, whatever failed inside (an override, a bug): never a bare TypeError. */
  const typed =
    <A extends [string, ...unknown[]], R>(method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      method(...args).catch((error: unknown) => {
        throw toToolsError(error, byId.has(args[0]) ? args[0] : undefined)
      })

  const core = {
    interpret,
    run: typed(run),
    start: typed(start),
    wait: typed((id: string, jobId: string, opts: CallOptions = {}) => follow(id, jobId, opts, false)),
  }
  // Durable runs load only with a journal: a client without one never carries them.
  const journal = options.journal
  const durable = journal
    ? import('./runs/durable.js').then(({ durableRuns }) =>
        durableRuns(core, (id) => byId.get(id)?.mode === 'deferred', { ...options, journal }),
      )
    : undefined

  return {
    baseUrl: options.baseUrl,
    pollInterval,
    ...core,
    run: durable ? typed(async (id: string, input: unknown, opts?: CallOptions) => (await durable).run(id, input, opts)) : core.run,
    /** The journal's runs, newest first (none without a journal). */
    runs: async () => (durable ? (await durable).runs() : []),
    /** Finishes every run a crash left (none without a journal). */
    resume: async (opts?: CallOptions) => (durable ? (await durable).resume(opts) : []),
    job: typed(job),
    artifact: typed(async (url: string, opts: Pick<CallOptions, 'signal'> = {}): Promise<Blob> => (await artifactFile(url, opts)).blob),
    artifactFile: typed(artifactFile),
    /** Behind a proxy: the person's standing under its spend cap, as the proxy answers it. */
    usage: async (opts: Pick<CallOptions, 'signal'> = {}) => (await readBody(await send(undefined, `${base()}/usage`, opts))) as Usage,
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
  fileName?: string
}

