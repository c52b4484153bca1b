import type { CallOptions, Job, JobHandle, Result, ToolDefinition, Usage } from './definition.js'
import { chunkKit } from './chunkKit.js'
import { issue, toToolsError, validationError, type ValidationIssue } from './errors.js'
import { loadOnce, whenLoaded } from './chunks.js'
import { encode, issuesOf, validate } from './encode.js'
import { newIdempotencyKey } from './ids.js'
import type { Interpretation } from './interpret.js'
import type { FollowedJob, JobParts, Jobs } from './jobs.js'
import { pageStream, type PageStream } from './pageStream.js'
import { asRecord } from './record.js'
import { linksIn, malformed, readBody, requestIdOf } from './response.js'
import type { RetryOptions } from './retry.js'
import type { JournalLimits } from './runs/bounds.js'
import type { JournalProblem, JournalStore, WebStorage } from './runs/journal.js'
import { runKit } from './runs/runKit.js'
import type { Send } from './send.js'
import { clientSettings, type ClientSettings } from './settings.js'

export { DEFAULT_POLL_INTERVAL, DEFAULT_POLL_TIMEOUT } from './settings.js'
/** The job half of every client (reading and following jobs), a chunk of its own. */
export const loadJobs = loadOnce(() => import('./jobs.js'))
/** Downloading a result file, a chunk of its own. */
export const loadArtifacts = loadOnce(() => import('./artifacts.js'))
/** Sending requests (their pace, retries and waits), a chunk of its own: fetched on idle or at the first call. */
export const loadSender = loadOnce(() => import('./send.js'))

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
  pollIntervalMs?: number
  /** @deprecated Use `pollIntervalMs`; kept working through 0.x. */
  pollInterval?: number
  /** How long a job is polled before failing with `timeout`. Default an hour. */
  pollTimeoutMs?: number
  /** @deprecated Use `pollTimeoutMs`; kept working through 0.x. */
  pollTimeout?: number
  /** Multipart part name of the file, per tool id, where the service expects another. */
  fileFields?: Record<string, string>
  /** Replaces the kit's reading of what the spec leaves unshown. */
  interpret?: Partial<Interpretation>
  /**
   * Where `run` journals a deferred tool's run before its POST leaves (a Web Storage such as
   * localStorage, a file-backed one, or any `JournalStore`), so `resume()` finishes it after a crash.
   * Without one, unfinished runs are kept in this client's memory (the same input run again is the same run).
   */
  journal?: JournalStore | WebStorage
  /** Behind a proxy, who the runs are for: the journal keeps each person's apart. */
  user?: string
  /** How many unfinished runs the journal keeps (`maxRuns`, default 50) and how long (`maxAgeMs`, default 24 hours). */
  journalLimits?: JournalLimits
  /**
   * Told of each journal entry set aside: unreadable, not a run, an unknown tool's, or dropped
   * past the limits (oldest first). `runs()` and `resume()` never reject for them.
   */
  onJournalError?: (problem: JournalProblem) => void
}

/** The untyped client over any tool table; `createToolsClient` binds it to the catalogue. */
export function createClient(tools: readonly ToolDefinition[], options: ToolsClientOptions) {
  const byId = new Map(tools.map((tool) => [tool.id, tool]))
  const settings = clientSettings(options)
  const { interpret, base } = settings
  const stream = pageStream(settings, async (page) =>
    (await loadSender()).requestHeaders(settings, await settings.resolveKey(), undefined, page),
  )
  const send = lazySender(settings, stream)

  const definition = definitionIn(byId)

  /** POSTs a tool call; validation first, so bad input never reaches the service. */
  async function call(tool: ToolDefinition, input: unknown, opts: CallOptions): Promise<{ response: Response; body: unknown }> {
    // Fetched while the input is checked, should the page not have gone idle yet.
    void loadSender().catch(() => undefined)
    const value = await validate(tool, input, opts)
    const post = { ...encode(tool, value, options.fileFields), idempotencyKey: opts.idempotencyKey ?? newIdempotencyKey() }
    const response = await send(tool, base() + tool.path, opts, { ...post, onUploadProgress: opts.onUploadProgress })
    return { response, body: await readBody(response) }
  }

  async function start(id: string, input: unknown, opts: CallOptions = {}): Promise<JobHandle> {
    const tool = definition(id)
    if (tool.mode !== 'deferred') throw validationError([issue('tool', 'sync-tool')], id)
    // Fetched while the POST is out, so following the job does not wait for it.
    void loadJobs().catch(() => undefined)
    // Sent naming this page (a stream was named before it): the page's stream carries it.
    const paged = stream.named()
    const { response, body } = await call(tool, input, opts)
    stream.offer(response)
    const { jobId, status, requestId } = asRecord(body) ?? {}
    if (typeof jobId !== 'string' || !jobId || typeof status !== 'string' || typeof requestId !== 'string') {
      throw malformed(tool, 'a 202 needs jobId, status and requestId', body, response.status)
    }
    // The proxy adds it to the page's stream, open or opening: no need to open another for it.
    if (paged) stream.eventHub().then((loaded) => loaded.started(tool.id, jobId), () => undefined)
    return { tool: tool.id, jobId, status, requestId, ...replayed(response) }
  }

  const jobsFor = jobsLoader({ settings, stream, send }, definition)
  const follow = async (job: FollowedJob, opts: CallOptions) => (await jobsFor(job.id, job.jobId, opts)).follow(job, opts)
  const followStarted = (id: string, { jobId, requestId, replayed }: JobHandle, opts: CallOptions) => follow({ id, jobId, fresh: true, requestId, replayed }, opts)

  async function run(id: string, input: unknown, opts: CallOptions = {}): Promise<Result | Job> {
    const tool = definition(id)
    if (tool.mode === 'deferred') {
      return followStarted(id, await start(id, input, opts), opts)
    }
    const { response, body } = await call(tool, input, opts)
    return { tool: tool.id, data: body, artifacts: linksIn(settings, body), requestId: requestIdOf(body, response.headers), ...replayed(response) }
  }

  /** Downloads a result link with the key; a link off the service's origin is refused before any request or wait. */
  async function artifactFile(url: string, opts: Pick<CallOptions, 'signal'> = {}) {
    const target = onOrigin(base(), url)
    const { downloadArtifact } = await whenLoaded(loadArtifacts, 'The download code', {}, opts)
    return downloadArtifact(send, target, opts)
  }

  const typed = typedBy(byId)
  const core = {
    interpret,
    run: typed(run),
    start: typed(start),
    wait: typed((id: string, jobId: string, opts: CallOptions = {}) => follow({ id, jobId, fresh: false }, opts)),
  }
  return {
    baseUrl: options.baseUrl,
    pollInterval: settings.pollInterval,
    ...core,
    ...durableParts({ ...core, followStarted }, (id) => byId.get(id)?.mode === 'deferred', options, typed),
    job: typed(async (id: string, jobId: string, opts: CallOptions = {}) => (await jobsFor(id, jobId, opts)).read(id, jobId, opts)),
    artifact: typed(async (url: string, opts: Pick<CallOptions, 'signal'> = {}): Promise<Blob> => (await artifactFile(url, opts)).blob),
    artifactFile: typed(artifactFile),
    /** Behind a proxy: the person's standing under its spend cap, as the proxy answers it. */
    usage: async (opts: Pick<CallOptions, 'signal'> = {}) => (await readBody(await send(undefined, `${base()}/usage`, opts))) as Usage,
    /** The issues `run` would refuse `input` for (none when valid), without sending anything. */
    validate: async (id: string, input: unknown): Promise<ValidationIssue[]> => issuesOf(definition(id), input),
  }
}

/** The tool of an id; an unknown one is refused (`unknown-tool`) before any request. */
const definitionIn =
  (byId: Map<string, ToolDefinition>) =>
  (id: string): ToolDefinition => {
    const tool = byId.get(id)
    if (!tool) throw validationError([issue('tool', 'unknown-tool')], id)
    return tool
  }

/**
 * Sends as send.ts does, once its chunk has come (offline: once back online, saying so). One
 * sender for the client, however many requests waited for the chunk: its pace is the key's.
 */
function lazySender(settings: ClientSettings, stream: PageStream): Send {
  let sender: Send | undefined
  return async (tool, url, opts, post) => {
    const { createSender } = await whenLoaded(loadSender, 'The code that sends requests', { tool: tool?.id }, opts)
    sender ??= createSender(settings, stream, chunkKit)
    return sender(tool, url, opts, post)
  }
}

/**
 * The client's jobs (reading and following them), their code loaded at the first use (offline:
 * once back online). A job's tool and id are checked first: bad input is refused before any
 * request or any wait; a failed load names the job, to wait for again.
 */
function jobsLoader(parts: Omit<JobParts, 'kit'>, definition: (id: string) => ToolDefinition) {
  function jobTool(id: string, jobId: string): ToolDefinition {
    const tool = definition(id)
    if (typeof jobId !== 'string' || jobId === '') throw validationError([issue('jobId', 'required')], id)
    return tool
  }
  let jobs: Jobs | undefined
  return async (id: string, jobId: string, opts: CallOptions): Promise<Jobs> => {
    jobTool(id, jobId)
    const loaded = await whenLoaded(loadJobs, 'The code that follows jobs', { tool: id, jobId }, opts)
    return (jobs ??= loaded.createJobs({ ...parts, kit: chunkKit }, jobTool))
  }
}

/** `url` resolved against the service; refused (`foreign-url`) when not on its origin: the key goes there only. */
function onOrigin(root: string, url: string): URL {
  let target: URL | undefined
  try {
    target = new URL(url, root + '/')
  } catch {
    // Not a link at all: refused as foreign below.
  }
  if (target?.origin !== new URL(root).origin) throw validationError([issue('url', 'foreign-url')])
  return target
}

type Typed = <A extends [string, ...unknown[]], R>(method: (...args: A) => Promise<R>) => (...args: A) => Promise<R>

/** Every public call rejects with a ToolsError, whatever failed inside (an override, a bug): never a bare TypeError. */
const typedBy =
  (byId: Map<string, ToolDefinition>): Typed =>
  (method) =>
  (...args) =>
    method(...args).catch((error: unknown) => {
      throw toToolsError(error, byId.has(args[0]) ? args[0] : undefined)
    })

/** What an answer says of itself: a replay of an earlier POST with the same Idempotency-Key. */
const replayed = (response: Response): { replayed?: true } => (response.headers.get('idempotent-replayed') === 'true' ? { replayed: true } : {})

type Core = Parameters<typeof import('./runs/durable.js').durableRuns>[1]

/**
 * `run` journaled, `runs()` and `resume()`. With no journal, unfinished runs are kept in this
 * client's memory: the same input run again reuses its Idempotency-Key, or follows the job it
 * made. Their code is a chunk of its own: with a journal it is fetched at once (a crash's runs
 * await it); without one, at the first deferred run; a failed fetch is tried again at the next use.
 * `followStarted` (off the public client) follows a job a run's POST just made as `run` does: not read at once.
 */
function durableParts(core: Core, deferred: (id: string) => boolean, options: ToolsClientOptions, typed: Typed) {
  const durable = loadOnce(() => import('./runs/durable.js').then(({ durableRuns }) => durableRuns(runKit, core, deferred, options)))
  if (options.journal) void durable().catch(() => undefined)
  return {
    run: typed(async (id: string, input: unknown, opts: CallOptions = {}) =>
      deferred(id) ? (await whenLoaded(durable, 'The code that keeps runs', { tool: id }, opts)).run(id, input, opts) : core.run(id, input, opts),
    ),
    // Their code not loaded, nothing is listed or resumed (`run` tries again): they never reject.
    /** The journal's runs, newest first (without a journal, this client's unfinished ones). */
    runs: () => durable().then((runs) => runs.runs(), () => []),
    /** Finishes every run a crash left (without a journal, this client's unfinished ones). */
    resume: (opts?: CallOptions) => durable().then((runs) => runs.resume(opts), () => []),
  }
}

export type { ArtifactFile } from './artifacts.js'
