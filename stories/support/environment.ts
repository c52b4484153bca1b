// Where the catalogue runs, and so how fast and against which service.

/**
 * True when the stories run as tests (Vitest browser mode, `npm test`): jobs, polls and waits
 * are then short so the suite stays fast. In the catalogue they are slow enough to watch.
 */
export const TEST_RUN = typeof globalThis !== 'undefined' && '__vitest_browser__' in globalThis

/**
 * Live mode: with STORYBOOK_TOOLS_BASE_URL and STORYBOOK_TOOLS_API_KEY set when Storybook starts
 * (or builds), stories talk to that service instead of the simulated one. Never in a test run:
 * `npm test` must not spend real money or depend on a real service.
 */
export const LIVE: { baseUrl: string; apiKey: string } | null = (() => {
  const env = import.meta.env as Record<string, string | undefined>
  const baseUrl = env.STORYBOOK_TOOLS_BASE_URL?.trim()
  const apiKey = env.STORYBOOK_TOOLS_API_KEY?.trim()
  return !TEST_RUN && baseUrl && apiKey ? { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey } : null
})()

/** Milliseconds a simulated job takes from creation to its end. */
export const JOB_DURATION = TEST_RUN ? 300 : 2500
/** Milliseconds every simulated answer waits: a little in the catalogue, so "Sending…" shows. */
export const LATENCY = TEST_RUN ? 0 : 200
/** Milliseconds between job polls. */
export const POLL_INTERVAL = TEST_RUN ? 50 : 400
/** How long a play function waits for a run to end: a live service may take minutes. */
export const RUN_TIMEOUT = LIVE ? 300_000 : TEST_RUN ? 8_000 : 20_000
/**
 * How long a play function waits for what comes only with a chunk of the kit's (the input checks,
 * the sender, the code that reads jobs): on a busy machine a cold dev server serves one slowly.
 */
export const CHUNK_TIMEOUT = 8_000
/** Where the billing notice sends people in the catalogue. */
export const BILLING_URL = 'https://cabinet.example/billing'
