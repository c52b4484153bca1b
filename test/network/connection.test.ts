// On Fast 3G, the connection lost during a run's POST (after the service billed it), during its
// event stream, and during its result file's download: each run ends with its result, billed once.
import { describe, expect, it } from 'vitest'
import { loseFirstAnswer } from './browser.js'
import { fillAndRun, open, resultShown, toldWhatHappens, type NetTool } from './run.js'
import { networkSuite } from './suite.js'

const suite = networkSuite(2000)

describe.concurrent('the connection lost', () => {
  it.for<NetTool>(['pdf/create', 'photo/enhance'])('during the POST, its answer lost after the service billed it (Fast 3G, %s): sent again with its key, billed once', async (tool, test) => {
    const { site, tab } = await suite.open('Fast 3G', test)
    const lost = await loseFirstAnswer(tab.page, 'POST', /\/api\/tools\/(valuation|pdf|photo)\//)
    await open(tab, site.url, tool)
    await fillAndRun(tab, tool)
    await resultShown(tab, tool)
    expect(lost.lost).toBe(1)
    expect(site.service.log.filter((entry) => entry.kind === 'call').length).toBeGreaterThanOrEqual(2)
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })

  it('during the POST of a synchronous tool, its answer lost after the service billed it (Fast 3G, valuation/rent): told, never sent again by itself', async (test) => {
    // The spec replays job creation only: a synchronous call cannot be sent again without a risk of
    // a second bill, so the person is told the connection failed, and chooses.
    const { site, tab } = await suite.open('Fast 3G', test)
    const lost = await loseFirstAnswer(tab.page, 'POST', /\/api\/tools\/valuation\//)
    await open(tab, site.url, 'valuation/rent')
    await fillAndRun(tab, 'valuation/rent')
    await tab.page.getByText('No connection to the service').waitFor({ timeout: 60_000 })
    expect(lost.lost).toBe(1)
    expect(site.service.log.filter((entry) => entry.kind === 'call')).toHaveLength(1)
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
    await tab.page.getByRole('button', { name: 'Try again' }).click()
    await resultShown(tab, 'valuation/rent')
  })

  it.for<NetTool>(['pdf/create', 'photo/enhance'])('during the result file’s download (Fast 3G, %s): fetched again, shown, billed once', async (tool, test) => {
    const { site, tab } = await suite.open('Fast 3G', test)
    const lost = await loseFirstAnswer(tab.page, 'GET', /\/api\/tools\/artifacts\//)
    await open(tab, site.url, tool)
    await fillAndRun(tab, tool)
    await resultShown(tab, tool)
    expect(lost.lost).toBe(1)
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })

  it('during the event stream (Fast 3G, pdf/create): the job followed to its end, billed once', async (test) => {
    const { site, tab } = await suite.open('Fast 3G', test)
    const lost = await loseFirstAnswer(tab.page, 'GET', /\/api\/tools\/events/)
    await open(tab, site.url, 'pdf/create')
    await fillAndRun(tab, 'pdf/create')
    await resultShown(tab, 'pdf/create')
    expect(lost.lost).toBe(1)
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })
})
