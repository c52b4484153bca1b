import type { DeferredToolId, Scope, ToolId } from '../tools/index.js'

/**
 * What an account has left to pay for tool calls with. Calls are paid in this order:
 * subscription, bundle, pay as you go.
 */
export interface MockWallet {
  /** Calls still included in the subscription. */
  subscriptionCalls: number
  /** Prepaid calls left in the bundle. */
  bundleCalls: number
  /** Pay-as-you-go money left, in minor units (cents). */
  balanceCents: number
  /** Pay-as-you-go price of one call, in minor units (cents). */
  callPriceCents: number
  currency: string
}

/** An account of the simulated service: its keys, its wallet and the listings it owns. */
export interface MockAccount {
  id: string
  /** API key → the scopes it was created with. */
  keys: Record<string, readonly Scope[]>
  wallet: MockWallet
  /** Listings (`objectId`) the account owns. */
  objects?: readonly string[]
  /** Collections (`collectionId`) the account owns. */
  collections?: readonly string[]
  /** The terminal status of every job its keys create, whatever the service's `outcome` says. */
  outcome?: MockJobOutcome
  /**
   * A fault every request with its keys meets (`rate-limit`: 429 with `Retry-After: 1`;
   * `server-error`: 500 …), after any injected one: an account that always fails so.
   */
  fault?: MockFault
}

/** Which wallet source paid for a call. */
export type BillingSource = 'subscription' | 'bundle' | 'payg'

/** What a request was: a tool call (POST), a job poll, an artifact download, or anything else under the base URL. */
export type MockRequestKind = 'call' | 'poll' | 'artifact' | 'other'

/** The terminal status a job reaches: one of the three success synonyms, or `failed`. */
export type MockJobOutcome = 'completed' | 'done' | 'success' | 'failed'

/** Decides, when a job is created, the terminal status it will reach. */
export type MockOutcomeRule = (job: {
  tool: DeferredToolId
  /** The JSON body, or a file tool's `data` options plus `file: { name, type, size }`. */
  input: Record<string, unknown>
  /** Id of the calling account. */
  account: string
}) => MockJobOutcome

/** Per-key rate limit on tool calls (polls and downloads are not limited), in fixed windows. */
export interface MockRateLimit {
  /** Tool calls allowed per key in one window. */
  limit: number
  windowMs: number
  /** The Retry-After sent with a 429; by default the seconds until the window ends. */
  retryAfterSeconds?: number
}

/**
 * A simulated failure:
 * - `lost`: the request is processed (and billed) but the answer never arrives (network error);
 * - `held`: the request is processed (and billed) but the answer is held back until the client
 *   gives up (aborts), as on a page closed or reloaded while the POST was in flight;
 * - `network`: the request fails before reaching the service;
 * - `server-error`: 500 with a JSON error body, not processed;
 * - `html-error`: 502 with an HTML page body, as a proxy would send, not processed;
 * - `rate-limit`: 429 with Retry-After, not processed.
 */
export type MockFault = 'lost' | 'held' | 'network' | 'server-error' | 'html-error' | 'rate-limit'

/** A fault to inject into the next matching requests. */
export interface MockFaultInjection {
  /** Requests it applies to; every given field must match. Omitted: the next request of any kind. */
  match?: { tool?: ToolId; method?: 'GET' | 'POST'; kind?: MockRequestKind }
  fault: MockFault
  /** How many matching requests it hits. Default 1; `Infinity` for all. */
  times?: number
  /**
   * `rate-limit` only: the pause to announce, in milliseconds (sent as Retry-After in seconds:
   * `retryAfterMs: 5000` sends `Retry-After: 5`), or as an HTTP date (rounded up to the next
   * whole second). Default 1000.
   */
  retryAfterMs?: number | Date
  /**
   * @deprecated Use `retryAfterMs`, in milliseconds (`retryAfter: 5` is `retryAfterMs: 5000`).
   * Seconds, or an HTTP date; read only when `retryAfterMs` is not given.
   */
  retryAfter?: number | Date
}

/** One request the simulated service answered (or dropped). */
export interface MockLogEntry {
  /** When the request arrived, in ms since the epoch (`Date.now()`). */
  at: number
  method: string
  /** The path below the base URL, e.g. `/pdf/create/jobs/job_…`. */
  path: string
  kind: MockRequestKind
  /** The catalogue tool the request was for (calls and polls). */
  tool?: ToolId
  /** The bearer key sent, if any. */
  key?: string
  /** The account owning that key, when the key is known. */
  account?: string
  idempotencyKey?: string
  /** The status the service answered, or 0 where it sent nothing (`network` fault). */
  status: number
  /** The wallet source that paid, or null when the request was not billed. */
  billed: BillingSource | null
  /** An idempotent replay of an earlier job creation: answered from memory, not billed. */
  replay: boolean
  /** The request's media type (without parameters), if it had a body. */
  contentType?: string
  /** The `X-Request-Id` of the answer. */
  requestId?: string
  /** The injected fault that hit this request. */
  fault?: MockFault
}

/** Settings of `createMockService`; all optional. */
export interface MockServiceOptions {
  /** Where the service lives. Default `MOCK_BASE_URL`. */
  baseUrl?: string
  /** The accounts, keys and listings. Default `MOCK_ACCOUNTS`. */
  accounts?: readonly MockAccount[]
  /**
   * Milliseconds from a job's creation to its terminal status: pending for the first third,
   * then the intermediate status. Default 30 (tests); a few seconds suits a UI.
   */
  jobDurationMs?: number
  /** @deprecated Use `jobDurationMs` (the same milliseconds); kept as an alias. */
  jobDuration?: number
  /** The running status between `pending` and the end. Default `processing`. */
  intermediateStatus?: string
  /** The terminal status of new jobs, or a rule choosing it. Default `completed`. */
  outcome?: MockJobOutcome | MockOutcomeRule
  /** Per-key rate limit on tool calls, or `false` (default) for none. */
  rateLimit?: MockRateLimit | false
  /** Milliseconds to wait before answering each request. Default 0. */
  latencyMs?: number
  /** @deprecated Use `latencyMs` (the same milliseconds); kept as an alias. */
  latency?: number
  /** Send the service's webhooks: every job's change of status, signed, to an endpoint (a proxy's `{basePath}/webhooks`). */
  webhooks?: MockWebhooks
  /**
   * Where to keep what the service knows (jobs, files, replays, wallets) across a page reload:
   * `sessionStorage` in a browser, so a run the kit resumes after a reload finds its job. Default
   * none: the service starts afresh with each `createMockService`.
   */
  storage?: MockStorage
}

/** What `storage` needs of a Web Storage object (`sessionStorage`, `localStorage`). */
export type MockStorage = Pick<Storage, 'getItem' | 'setItem'>

/** Where and how the simulated service sends its webhooks (Standard Webhooks). */
export interface MockWebhooks {
  /** The endpoint, e.g. `https://partner.example/api/tools/webhooks`. */
  url: string
  /** The endpoint's signing secret, `whsec_…`: the same the proxy's `webhooks.secret` has. */
  secret: string
  /** Sends one delivery; default `fetch`. In process, pass the proxy's `handle`. */
  send?: (request: Request) => Promise<Response> | Response
}
