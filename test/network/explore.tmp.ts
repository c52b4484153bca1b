import { chromium } from 'playwright-core'
import { buildPage, serveSite } from './site.js'
const { out } = await buildPage()
const site = await serveSite(out, 3000)
console.log(site.url, out)
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] })
const page = await browser.newPage()
const t0 = Date.now()
page.on('request', (r) => console.log(Date.now() - t0, 'req', r.method(), r.url().replace(site.url, '')))
page.on('requestfailed', (r) => console.log(Date.now() - t0, 'FAILED', r.url().replace(site.url, '')))
const failedOnce = new Set<string>()
await page.route('**/assets/*.js', (route) => {
  const url = route.request().url()
  if (!failedOnce.has(url) && !url.includes('index-')) { failedOnce.add(url); return route.abort('connectionreset') }
  return route.continue()
})
await page.goto(`${site.url}/?tool=pdf/create`)
await page.waitForSelector('form button[type=submit]:not([disabled])')
console.log(await page.locator('#root').innerHTML())
await page.click('form button[type=submit]')
for (let i = 0; i < 12; i++) { await page.waitForTimeout(1000); console.log(Date.now() - t0, (await page.locator('#root').innerText()).replace(/\n/g, ' | ')) }
console.log('bills', site.service.bills())
await browser.close(); await site.close()
