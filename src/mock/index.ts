import type { HttpHandler } from 'msw'
import { mswHandlers } from './msw.js'
import { createRouter } from './routes.js'
import { ServiceState } from './state.js'
import type {
  MockFaultInjection,
  MockJobOutcome,
  MockLogEntry,
  MockOutcomeRule,
  MockServiceOptions,
  MockWallet,
} from './types.js'

export { exampleInput } from './examples.js'
export { ALL_SCOPES, MOCK_ACCOUNTS, MOCK_BASE_URL, MOCK_KEY_NOTES, MOCK_KEYS, MOCK_LISTINGS, type MockKeyName } from './fixtures.js'
export type {
  BillingSource,
  MockAccount,
  MockFault,
  MockFaultInjection,
  MockJobOutcome,
  MockLogEntry,
  MockOutcomeRule,
  MockRateLimit,
  MockRequestKind,
  MockServiceOptions,
  MockStorage,
  MockWallet,
  MockWebhooks,
} from './types.js'

/** A simulated Tools API: a Fetch handler (and MSW handlers over it) plus the state they share, for tests to inspect and steer. */
export interface MockService {
  /** The base URL the handlers answer under, without a trailing slash. */
  readonly baseUrl: string
  /**
   * MSW request handlers for `setupServer` (msw/node) or `setupWorker` (msw/browser), built on
   * first read. Throws where MSW cannot load (not installed; workerd): use `fetch` there.
   */
  readonly handlers: HttpHandler[]
  /** Answers a request in process, as the service would, with no MSW at all: a proxy's `fetch`, or a server's handler (Node, Bun, Deno, workerd). */
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>
  /** Every request answered so far, oldest first. Emptied in place by `reset()` (or by `log.length = 0`). */
  readonly log: MockLogEntry[]
  /** How many calls were billed: to `accountId`, or to any account. */
  bills(accountId?: string): number
  /** A copy of an account's wallet as it stands. Throws for an unknown account. */
  account(accountId: string): MockWallet
  /** Makes the next matching request(s) fail as `injection.fault` says. */
  inject(injection: MockFaultInjection): void
  /** The terminal status of jobs created from now on, or a rule choosing it per job. */
  setOutcome(outcome: MockJobOutcome | MockOutcomeRule): void
  /** Milliseconds every answer waits from now on. */
  setLatency(ms: number): void
  /** Stops (or restarts) the jobs' clock: frozen jobs keep their status and progress, so every poll reads the same body. */
  freezeJobs(frozen?: boolean): void
  /** Back to the initial state: log, jobs, artifacts, replays, faults and rate windows cleared, wallets refilled, options' outcome and latency restored, jobs unfrozen. */
  reset(): void
}

/**
 * Creates a simulated Tools API implementing the whole spec: keys and scopes, a wallet billed
 * subscription → bundle → pay as you go, listings owned by accounts, multipart checks, a rate
 * limit, idempotent job creation, jobs moving pending → intermediate → terminal, artifacts bound
 * to their key, and injectable faults.
 *
 * @example
 * const service = createMockService({ jobDurationMs: 3000 })
 * const server = setupServer(...service.handlers) // or setupWorker(...service.handlers)
 * const client = createToolsClient({ baseUrl: service.baseUrl, apiKey: MOCK_KEYS.demo })
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const state = new ServiceState(options)
  const answer = createRouter(state)
  let handlers: HttpHandler[] | undefined
  return {
    baseUrl: state.baseUrl,
    // Built on first use, so a service used only through `fetch` never needs MSW.
    get handlers() {
      return (handlers ??= mswHandlers(state.baseUrl, answer))
    },
    fetch: async (input, init) => {
      // A request is answered as it is (a server's own request class may not copy into another).
      const request = typeof input === 'object' && 'method' in input && init === undefined ? input : new Request(input, init)
      return (await answer(request)) ?? new Response('No such endpoint.', { status: 404 })
    },
    log: state.log,
    bills: (accountId) =>
      state.log.filter((entry) => entry.billed !== null && (accountId === undefined || entry.account === accountId)).length,
    account: (accountId) => ({ ...state.wallet(accountId) }),
    inject: (injection) => state.faults.add(injection),
    setOutcome: (outcome) => {
      state.outcome = outcome
    },
    setLatency: (ms) => {
      state.latency = ms
    },
    freezeJobs: (frozen = true) => state.jobClock.freeze(frozen),
    reset: () => state.reset(),
  }
}
