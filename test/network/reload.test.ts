// On Fast 3G, the page reloaded at each moment of a run, on a page whose provider is given `user`
// (runs kept across reloads, as the README shows): the reload takes the run up, billed once.
import { describe, expect, it } from 'vitest'
import { holdFirstAnswer, type Tab } from './browser.js'
import { fillAndRun, open, resultShown, toldWhatHappens, type NetTool } from './run.js'
import { networkSuite } from './suite.js'

const suite = networkSuite(3000)

const reloaded = async (current: Tab, drop?: () => Promise<unknown>) => {
  await current.page.unrouteAll({ behavior: 'ignoreErrors' })
  await Promise.all([current.page.reload(), drop?.()])
}

describe.concurrent('the page reloaded', () => {
  it.for<NetTool>(['pdf/create', 'photo/enhance'])('while the job runs (Fast 3G, %s): the run taken up, its result shown, billed once', async (tool, test) => {
    const { site, tab } = await suite.open('Fast 3G', test)
    await open(tab, site.url, tool, 'person')
    await fillAndRun(tab, tool)
    await tab.page.waitForSelector('.ct-job-progress', { timeout: 60_000 })
    await reloaded(tab)
    await resultShown(tab, tool)
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })

  it('while the POST’s answer is on its way, billed (Fast 3G, pdf/create): sent again with its key, billed once', async (test) => {
    const { site, tab } = await suite.open('Fast 3G', test)
    const { held, drop } = await holdFirstAnswer(tab.page, 'POST', /\/api\/tools\/pdf\//)
    await open(tab, site.url, 'pdf/create', 'person')
    await fillAndRun(tab, 'pdf/create')
    await held
    expect(site.service.bills()).toBe(1)
    await reloaded(tab, drop)
    await resultShown(tab, 'pdf/create')
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })

  it('while the result file downloads (Fast 3G, pdf/create): nothing sent again by itself, billed once, the form ready', async (test) => {
    // What holds today: the finished run is not shown again after the reload (the runner starts
    // empty), and a new Run posts with a new key, a second bill. Taking up a finished run's result
    // after a reload is the run journal's to give.
    const { site, tab } = await suite.open('Fast 3G', test)
    const { held, drop } = await holdFirstAnswer(tab.page, 'GET', /\/api\/tools\/artifacts\//)
    await open(tab, site.url, 'pdf/create', 'person')
    await fillAndRun(tab, 'pdf/create')
    await held
    await reloaded(tab, drop)
    await tab.page.waitForSelector('form button[type=submit]:not([disabled])', { timeout: 60_000 })
    expect(site.service.bills()).toBe(1)
    toldWhatHappens(tab)
  })
})
