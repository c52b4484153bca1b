import {
  createClient,
  type ArtifactFile,
  type CallOptions,
  type Interpretation,
  type Job,
  type JobHandle,
  type ToolsClientOptions,
  type Usage,
  type ValidationIssue,
  type ResumedRun as AnyResumedRun,
} from '../client/index.js'
import type { Run } from './runs.js'
import { TOOLS, type DeferredToolId, type ToolId, type ToolInput, type ToolResult } from './catalogue.js'

/** The framework-free client for the catalogue's tools, typed from it. */
export interface ToolsClient {
  readonly baseUrl: string
  /** The key as given (a string, or the function that returns it); none behind a proxy. Fingerprints runs and caches. */
  readonly apiKey?: string | (() => string | Promise<string>)
  /** Milliseconds between job polls unless a call says otherwise. */
  readonly pollInterval: number
  /** How this client reads what the spec leaves unshown: the defaults with its `interpret` options. */
  readonly interpret: Interpretation
  /**
   * The whole call: a synchronous tool's result, or a deferred tool's job submitted and waited for.
   * With a `journal`, a deferred run is journaled before its POST leaves and forgotten once its end is seen.
   */
  run<T extends ToolId>(tool: T, input: ToolInput<T>, opts?: CallOptions): Promise<ToolResult<T>>
  /** Submits a deferred tool's job (202) without waiting. */
  start<T extends DeferredToolId>(tool: T, input: ToolInput<T>, opts?: CallOptions): Promise<JobHandle<T>>
  /** One status read. Free. */
  job<T extends DeferredToolId>(tool: T, jobId: string, opts?: Pick<CallOptions, 'signal'>): Promise<Job<T>>
  /** Polls until a terminal status; rejects with `job-failed` when the job fails. */
  wait<T extends DeferredToolId>(tool: T, jobId: string, opts?: CallOptions): Promise<Job<T>>
  /** Downloads a result link with the key; refuses links off the service's origin. */
  artifact(url: string, opts?: Pick<CallOptions, 'signal'>): Promise<Blob>
  /** Like `artifact`, with the file name the service gives in `Content-Disposition` (raw: clean it before use). */
  artifactFile(url: string, opts?: Pick<CallOptions, 'signal'>): Promise<ArtifactFile>
  /** Behind a proxy: the signed-in person's standing under its spend cap (`GET {baseUrl}/usage`). */
  usage(opts?: Pick<CallOptions, 'signal'>): Promise<Usage>
  /** The issues `run` would refuse the input for, one per field; empty when valid. Sends nothing. */
  validate<T extends ToolId>(tool: T, input: ToolInput<T>): Promise<ValidationIssue[]>
  /** The journal's runs of this key (and `user`), newest first (without a journal, this client's unfinished ones). Never rejects. */
  runs(): Promise<Run[]>
  /**
   * Finishes every run a crash or reload left (a job is followed; a JSON run whose POST was never
   * answered is re-sent with its own Idempotency-Key, one POST at a time: a replay, not a new
   * bill) and settles with each one's end. Never rejects; without a journal, this client's unfinished runs.
   */
  resume(opts?: CallOptions): Promise<ResumedRun[]>
}

/** A run `client.resume()` took up: its job at the end, or why it could not end (`error`). */
export type ResumedRun = AnyResumedRun<ToolId>

export function createToolsClient(options: ToolsClientOptions): ToolsClient {
  // The key rides along (here, not in the framework-free client) for the React layer's fingerprint.
  return Object.assign(createClient(TOOLS, options), { apiKey: options.apiKey }) as unknown as ToolsClient
}
