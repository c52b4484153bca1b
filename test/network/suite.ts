// What every file of the network suite shares: one Chromium and the page built once (the global
// setup). Each case has a site of its own (the proxy and the simulated service, whose bills it
// counts) and a tab of its own, so the cases of a file run side by side: they mostly wait on the
// emulated network.
import { afterAll, beforeAll, inject, type TestContext } from 'vitest'
import type { Browser } from 'playwright-core'
import { launch, openTab, type NetworkName } from './browser.js'
import { serveSite } from './site.js'

/** The file's browser; `open(network)` gives a case its site and tab. Jobs last `jobDurationMs` on the service. */
export function networkSuite(jobDurationMs: number) {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return {
    /** The case's own site and tab, closed when `test` (its context: cases run side by side) finishes. */
    async open(network: NetworkName, test: TestContext) {
      const site = await serveSite(inject('pageDir'), jobDurationMs)
      const tab = await openTab(browser!, network)
      test.onTestFinished(async () => {
        await tab.close()
        await site.close()
      })
      return { site, tab }
    },
  }
}
