// On Fast 3G, every lazy chunk of the page failing on its first fetch (a dropped connection), and
// every fetch failing while offline: each run ends with its result, told meanwhile, billed once.
import { describe, expect, it } from 'vitest'
import { failChunksOnce, type NetworkName } from './browser.js'
import { fillAndRun, open, resultShown, toldWhatHappens, type NetTool } from './run.js'
import { networkSuite } from './suite.js'

const suite = networkSuite(2000)

const cases: [NetworkName, NetTool][] = [
  ['Fast 3G', 'valuation/rent'],
  ['Fast 3G', 'pdf/create'],
  ['Fast 3G', 'photo/enhance'],
  ['Slow 4G', 'pdf/create'],
]

describe.concurrent('each lazy chunk failing on its first fetch', () => {
  it.for(cases)('%s, %s: fetched again with no reload; the result shown, billed once', async ([network, tool], test) => {
    const { site, tab } = await suite.open(network, test)
    const failed = await failChunksOnce(tab.page)
    await open(tab, site.url, tool)
    await fillAndRun(tab, tool)
    await resultShown(tab, tool)
    expect(failed.size).toBeGreaterThan(3)
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })
})

describe.concurrent('offline once the page is in, back online later', () => {
  it.for<NetTool>(['pdf/create', 'photo/enhance'])('Fast 3G, %s: the run waits, saying so, then ends, billed once', async (tool, test) => {
    const { site, tab } = await suite.open('Fast 3G', test)
    await open(tab, site.url, tool)
    await tab.page.waitForSelector(tool === 'photo/enhance' ? 'input[type=file]' : 'form button[type=submit]:not([disabled])', { timeout: 60_000, state: 'attached' })
    await tab.offline()
    await fillAndRun(tab, tool)
    await tab.page.getByText(/no connection/i).first().waitFor({ timeout: 60_000 })
    expect(site.service.bills()).toBe(0)
    await tab.online()
    await resultShown(tab, tool)
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })
})
