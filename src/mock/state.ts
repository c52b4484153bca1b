import type { DeferredToolId, Scope } from '../tools/index.js'
import { renderArtifact, type ArtifactSpec, type StoredArtifact } from './artifacts/index.js'
import { createFaultQueue } from './faults.js'
import { MOCK_ACCOUNTS, MOCK_BASE_URL } from './fixtures.js'
import { newId } from './http.js'
import { JobClock, jobStage, type MockJob } from './jobs.js'
import { createRateLimiter } from './rate-limit.js'
import { createWebhookSender } from './webhooks.js'
import { TOOL_RESULTS } from './results.js'
import type {
  MockAccount,
  MockJobOutcome,
  MockLogEntry,
  MockOutcomeRule,
  MockServiceOptions,
  MockStorage,
  MockWallet,
} from './types.js'

/** What a kept service writes to its storage: enough to answer every job, file and replay again. */
interface Snapshot {
  version: 1
  jobs: MockJob[]
  artifacts: { id: string; key: string; spec: ArtifactSpec }[]
  creations: [string, StoredCreation][]
  wallets: [string, MockWallet][]
}

/** Who is calling: a known key, its scopes and its account. */
export interface Caller {
  key: string
  scopes: ReadonlySet<Scope>
  account: MockAccount
}

/** A job creation remembered under its Idempotency-Key, to be replayed verbatim. */
interface StoredCreation {
  tool: DeferredToolId
  status: number
  body: Record<string, unknown>
  requestId: string
}

/** Everything the simulated service knows; `reset()` returns it to how it started. */
export class ServiceState {
  readonly baseUrl: string
  /** Milliseconds every answer waits. */
  latency: number
  readonly jobDurationMs: number
  readonly intermediateStatus: string
  readonly log: MockLogEntry[] = []
  readonly jobs = new Map<string, MockJob>()
  readonly artifacts = new Map<string, StoredArtifact>()
  readonly faults = createFaultQueue()
  readonly rateLimiter: ReturnType<typeof createRateLimiter>
  outcome: MockJobOutcome | MockOutcomeRule
  jobClock = new JobClock()
  /** Sends each job's changes, when the options name an endpoint. */
  readonly webhooks: ReturnType<typeof createWebhookSender> | undefined

  private readonly accounts: readonly MockAccount[]
  private arrivals = 0
  private readonly arrivalOf = new WeakMap<MockLogEntry, number>()
  private readonly callers = new Map<string, Caller>()
  private readonly wallets = new Map<string, MockWallet>()
  private readonly creations = new Map<string, StoredCreation>()
  private readonly basePath: string
  /** The base URL's origin; undefined for a relative base, matched by path alone. */
  private readonly baseOrigin: string | undefined
  private readonly initialOutcome: MockJobOutcome | MockOutcomeRule
  private readonly initialLatency: number
  private readonly storage: MockStorage | undefined
  private readonly storageKey: string

  constructor(options: MockServiceOptions) {
    this.baseUrl = (options.baseUrl ?? MOCK_BASE_URL).replace(/\/+$/, '')
    // A relative base (a same-origin proxy path) is matched by path alone.
    const base = new URL(this.baseUrl, 'http://relative.invalid')
    this.basePath = base.pathname.replace(/\/+$/, '')
    this.baseOrigin = base.origin === 'http://relative.invalid' ? undefined : base.origin
    this.initialLatency = this.latency = options.latencyMs ?? options.latency ?? 0
    this.jobDurationMs = options.jobDurationMs ?? options.jobDuration ?? 30
    this.intermediateStatus = options.intermediateStatus ?? 'processing'
    this.initialOutcome = this.outcome = options.outcome ?? 'completed'
    this.rateLimiter = createRateLimiter(options.rateLimit ?? false)
    this.accounts = options.accounts ?? MOCK_ACCOUNTS
    for (const account of this.accounts) {
      for (const [key, scopes] of Object.entries(account.keys)) {
        if (this.callers.has(key)) throw new Error(`The mock key "${key}" is given to more than one account.`)
        this.callers.set(key, { key, scopes: new Set(scopes), account })
      }
    }
    this.webhooks = options.webhooks && createWebhookSender(options.webhooks, () => this.jobClock, (job) => this.jobBody(job))
    this.resetWallets()
    this.storage = options.storage
    this.storageKey = `cabinet-tools-mock ${this.baseUrl}`
    this.restore()
  }

  /** The next request's place in arrival order (see `record`). */
  arrival(): number {
    return this.arrivals++
  }

  /**
   * Logs a request once answered, in the order requests arrived: one answered quickly (a read)
   * never goes before one that came first and took longer (a call whose body was still read).
   */
  record(entry: MockLogEntry, arrival: number): void {
    this.arrivalOf.set(entry, arrival)
    const later = this.log.findIndex((logged) => (this.arrivalOf.get(logged) ?? -1) > arrival)
    if (later === -1) this.log.push(entry)
    else this.log.splice(later, 0, entry)
  }

  /** Writes what the service knows to its storage, if it has one (after every request). */
  keep(): void {
    if (!this.storage) return
    const snapshot: Snapshot = {
      version: 1,
      jobs: [...this.jobs.values()],
      artifacts: [...this.artifacts.values()].map(({ id, key, spec }) => ({ id, key, spec })),
      creations: [...this.creations],
      wallets: [...this.wallets],
    }
    try {
      this.storage.setItem(this.storageKey, JSON.stringify(snapshot))
    } catch {
      // A full storage keeps the last snapshot: the service goes on in memory.
    }
  }

  private restore(): void {
    let snapshot: Snapshot | undefined
    try {
      snapshot = JSON.parse(this.storage?.getItem(this.storageKey) ?? 'null') as Snapshot | undefined
    } catch {
      return
    }
    if (snapshot?.version !== 1) return
    for (const job of snapshot.jobs) this.jobs.set(job.id, job)
    for (const { id, key, spec } of snapshot.artifacts) this.putArtifact(id, key, spec)
    for (const [key, creation] of snapshot.creations) this.creations.set(key, creation)
    for (const [account, wallet] of snapshot.wallets) if (this.wallets.has(account)) this.wallets.set(account, wallet)
  }

  /** Back to the initial state: wallets refilled; log, jobs, artifacts, replays, faults and rate windows cleared; settings restored. */
  reset(): void {
    this.log.length = 0
    this.jobs.clear()
    this.artifacts.clear()
    this.creations.clear()
    this.faults.clear()
    this.rateLimiter.clear()
    this.outcome = this.initialOutcome
    this.latency = this.initialLatency
    this.jobClock = new JobClock()
    this.webhooks?.clear()
    this.resetWallets()
    this.keep()
  }

  private resetWallets(): void {
    for (const account of this.accounts) this.wallets.set(account.id, { ...account.wallet })
  }

  /** The live wallet of an account. */
  wallet(accountId: string): MockWallet {
    const wallet = this.wallets.get(accountId)
    if (!wallet) throw new Error(`The mock service has no account "${accountId}".`)
    return wallet
  }

  caller(key: string | undefined): Caller | undefined {
    return key === undefined ? undefined : this.callers.get(key)
  }

  /** The path of `url` below the base URL. */
  relativePath(url: string): string {
    const { pathname } = new URL(url)
    return pathname.startsWith(this.basePath) ? pathname.slice(this.basePath.length) : pathname
  }

  /** The path of `url` below the base URL (`/pdf/create`), or undefined when `url` is not under it. */
  pathUnderBase(url: string): string | undefined {
    const { origin, pathname } = new URL(url)
    if (this.baseOrigin !== undefined && origin !== this.baseOrigin) return undefined
    return pathname.startsWith(`${this.basePath}/`) ? pathname.slice(this.basePath.length) : undefined
  }

  /** Stores a file for `key` and returns its link. */
  storeArtifact(spec: ArtifactSpec, key: string): string {
    const id = newId('art')
    this.putArtifact(id, key, spec)
    return `${this.baseUrl}/artifacts/${id}/${encodeURIComponent(spec.filename)}`
  }

  private putArtifact(id: string, key: string, spec: ArtifactSpec): void {
    this.artifacts.set(id, { id, key, filename: spec.filename, spec, ...renderArtifact(spec) })
  }

  /** The terminal status a new job will reach. */
  decideOutcome(job: Parameters<MockOutcomeRule>[0]): MockJobOutcome {
    return typeof this.outcome === 'function' ? this.outcome(job) : this.outcome
  }

  creation(key: string, idempotencyKey: string): StoredCreation | undefined {
    return this.creations.get(`${key}\n${idempotencyKey}`)
  }

  rememberCreation(key: string, idempotencyKey: string, creation: StoredCreation): void {
    this.creations.set(`${key}\n${idempotencyKey}`, creation)
  }

  /** A job's body as a poll sees it now; a finished job's result is built on first sight. */
  jobBody(job: MockJob): Record<string, unknown> {
    const { status, terminal, progress } = jobStage(job, this.jobClock.now())
    const body: Record<string, unknown> = {
      jobId: job.id,
      tool: job.tool,
      status,
      ...(progress === undefined ? {} : { progress }),
      requestId: job.requestId,
    }
    if (!terminal) return body
    if (status === 'failed') {
      return { ...body, error: { code: 'job_failed', message: `The ${job.tool} job failed (simulated).` } }
    }
    job.result ??= TOOL_RESULTS[job.tool]({
      input: job.input,
      artifact: (spec) => this.storeArtifact(spec, job.key),
    })
    return { ...body, result: job.result }
  }
}
