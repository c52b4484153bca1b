// Chromium (Debian's, or CHROMIUM_PATH) driving the network suite's page, with DevTools' network
// profiles through CDP and requests failed or held through Playwright's routing.
import { chromium, type Browser, type CDPSession, type Page, type Route } from 'playwright-core'

/** DevTools' throttling profiles (bytes per second). */
export const NETWORKS = {
  'Fast 3G': { latency: 562.5, downloadThroughput: 180 * 1024, uploadThroughput: 84 * 1024 },
  'Slow 4G': { latency: 150, downloadThroughput: 1.6 * 1024 * 1024, uploadThroughput: 750 * 1024 },
} as const
export type NetworkName = keyof typeof NETWORKS

export const launch = (): Promise<Browser> =>
  chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu'] })

/** A tab on `network`: switch it offline and back; every text the page showed is kept in `seen`. */
export async function openTab(browser: Browser, network: NetworkName) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const cdp: CDPSession = await context.newCDPSession(page)
  await cdp.send('Network.enable')
  const conditions = (offline: boolean) => cdp.send('Network.emulateNetworkConditions', { offline, ...NETWORKS[network] })
  await conditions(false)
  const seen = new Set<string>()
  // What the person is told meanwhile: every text the runner shows, as it changes.
  await page.exposeFunction('__seen', (text: string) => void seen.add(text))
  await page.addInitScript(() => {
    const report = () => {
      const root = document.querySelector('.ct-tool-runner') as HTMLElement | null
      if (root) (window as unknown as { __seen(text: string): void }).__seen(`[${root.dataset.state}] ${root.innerText}`)
    }
    new MutationObserver(report).observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  })
  return {
    page,
    seen,
    offline: () => conditions(true),
    online: () => conditions(false),
    close: () => context.close(),
  }
}
export type Tab = Awaited<ReturnType<typeof openTab>>

/** The page's lazy chunks (every script but the entry), each failing on its first fetch; returns those failed. */
export async function failChunksOnce(page: Page): Promise<Set<string>> {
  const failed = new Set<string>()
  await page.route(/\/assets\/.*\.js$/, (route: Route) => {
    const url = route.request().url()
    if (/\/assets\/index-[^/]*\.js$/.test(url) || failed.has(url)) return route.continue()
    failed.add(url)
    return route.abort('connectionreset')
  })
  return failed
}

/**
 * The first request matching `method` and `pattern` reaches the server (and is billed there), and
 * its answer is lost on the way back, as when the connection drops mid-request.
 */
export async function loseFirstAnswer(page: Page, method: string, pattern: RegExp): Promise<{ lost: number }> {
  const state = { lost: 0 }
  await page.route(pattern, async (route) => {
    if (route.request().method() !== method || state.lost > 0) return route.fallback()
    state.lost++
    await route.fetch().catch(() => undefined)
    await route.abort('connectionreset')
  })
  return state
}

/**
 * The first request matching `method` and `pattern` reaches the server (billed there, if a call),
 * and its answer is held, never given: `held` resolves then; `drop` cuts it (the page is reloaded).
 */
export async function holdFirstAnswer(page: Page, method: string, pattern: RegExp) {
  let reached!: (route: Route) => void
  const held = new Promise<Route>((resolve) => (reached = resolve))
  let taken = false
  await page.route(pattern, async (route) => {
    if (route.request().method() !== method || taken) return route.fallback()
    taken = true
    await route.fetch().catch(() => undefined)
    reached(route)
  })
  return { held, drop: async () => (await held).abort('connectionreset').catch(() => undefined) }
}
