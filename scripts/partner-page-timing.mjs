// The partner's page of scripts/partner-page (a Vite production build on the built dist/; run
// `npm run build` first) in headless Chromium (/usr/bin/chromium, or CHROMIUM_PATH) with DevTools'
// "Fast 3G" (latency 562.5 ms, 180 KB/s down, 84.4 KB/s up): the time from navigation to a drop or
// Run button ready, and from a Run click to the request leaving (resource timing's start), for a
// JSON tool (valuation/rent), a deferred JSON tool (pdf/create) and a file tool (photo/enhance). Each page is timed twice: filled and
// clicked the moment it is ready (the worst case: chunks loaded on idle may still be on their way),
// and at a person's pace (typing at 8 keys a second, a second to pick a file). The service's answer
// is a stub: only the request's leaving is timed.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { chromium } from 'playwright-core'
import { build } from 'vite'

const dir = mkdtempSync(join(tmpdir(), 'partner-page-'))
const out = join(dir, 'out')
writeFileSync(join(dir, 'index.html'), `<!doctype html><div id="root"></div><script type="module" src="${join(process.cwd(), 'scripts/partner-page/main.tsx')}"></script>`)
await build({
  root: dir,
  configFile: false,
  logLevel: 'silent',
  resolve: { alias: { '@cabinet/tools-react': join(process.cwd(), 'dist/entries/index.js') } },
  build: { outDir: out },
})
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x')
  if (url.pathname.startsWith('/v1/')) { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"requestId":"r","result":{}}'); return }
  const file = join(out, url.pathname === '/' ? 'index.html' : url.pathname)
  if (!existsSync(file)) { res.writeHead(404); res.end(); return }
  res.writeHead(200, { 'content-type': extname(file) === '.js' ? 'text/javascript' : 'text/html' }); res.end(readFileSync(file))
}).listen(0)
const port = server.address().port

/** What a person types into each JSON tool's form. */
const FIELDS = {
  'valuation/rent': [['propertyCategory', 'flat'], ['totalArea', '50'], ['city', 'Kazan']],
  'pdf/create': [['objectId', 'obj_demo']],
}

async function timePage(tool, keyDelay, pace) {
  const page = await browser.newPage()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 562.5, downloadThroughput: 180 * 1024, uploadThroughput: 84.4 * 1024 })
  const t0 = Date.now()
  await page.goto(`http://127.0.0.1:${port}/?tool=${encodeURIComponent(tool)}`)
  let ready
  if (tool in FIELDS) {
    await page.waitForSelector('form button[type=submit]:not([disabled])', { timeout: 60000 })
    ready = Date.now() - t0
    for (const [name, text] of FIELDS[tool]) await page.type(`input[name=${name}]`, text, { delay: keyDelay })
  } else {
    await page.waitForSelector('.ct-file-drop[data-state=idle]', { timeout: 60000 })
    ready = Date.now() - t0
    await page.waitForTimeout(keyDelay * 8)
    await page.setInputFiles('input[type=file]', { name: 'a.png', mimeType: 'image/png', buffer: Buffer.from('89504e470d0a1a0a', 'hex') })
    await page.waitForSelector('form button[type=submit]:not([disabled])')
  }
  await page.evaluate(() => document.addEventListener('click', () => { window.clickedAt = performance.now() }, { capture: true }))
  await page.click('form button[type=submit]')
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/v1/')), null, { timeout: 60000 })
  const gap = await page.evaluate(() => performance.getEntriesByType('resource').find((e) => e.name.includes('/v1/')).startTime - window.clickedAt)
  console.log(`${tool}, ${pace}: navigation → ready ${ready} ms; Run click → request leaving ${Math.round(gap)} ms`)
  await page.close()
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: ['--no-sandbox', '--headless'] })
for (const tool of ['valuation/rent', 'pdf/create', 'photo/enhance']) {
  for (const pace of ['at once', 'at a person\'s pace']) await timePage(tool, pace === 'at once' ? 0 : 125, pace)
}
await browser.close()
server.close()
rmSync(dir, { recursive: true, force: true })
