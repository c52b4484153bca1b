// The proxy alone in a process, for a clean reading of its memory. Built to JavaScript by the
// test that starts it. Arguments: the service's base URL and key. Prints its own URL; then, on
// stdin, `mark` starts measuring and `peak` prints how far its memory rose since (bytes): the
// RSS, and what JavaScript holds (heap, buffers), one line each.
import { createInterface } from 'node:readline'
import { serve } from 'srvx'
import { createToolsProxy } from '../../src/server/index.js'
import { TOOLS } from '../../src/tools/index.js'

const proxy = createToolsProxy({
  baseUrl: process.argv[2]!,
  apiKey: process.argv[3]!,
  basePath: '/api/tools',
  secret: 'a-test-secret-of-at-least-thirty-two-characters',
  authorize: (request) => {
    const user = request.headers.get('x-user')
    return user ? { user, tools: TOOLS.map((tool) => tool.id) } : null
  },
})
const server = serve({ fetch: (request) => proxy.handle(request), port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
await server.ready()
console.log(JSON.stringify({ url: server.url!.replace(/\/+$/, '') }))

/** What JavaScript holds: the heap, and the memory of every buffer (`external` counts them). */
const held = ({ heapUsed, external }: NodeJS.MemoryUsage) => heapUsed + external
let baseline = { rss: 0, held: 0 }
let peak = { rss: 0, held: 0 }
const sample = () => {
  const usage = process.memoryUsage()
  return { rss: usage.rss, held: held(usage) }
}
// Run with --expose-gc: garbage is collected before each reading, so the number is the memory
// the proxy holds, not the chunks already passed on that the collector has yet to reclaim.
const collect = (globalThis as { gc?: () => void }).gc
if (!collect) throw new Error('Start this script with node --expose-gc.')
setInterval(() => {
  collect()
  const now = sample()
  peak = { rss: Math.max(peak.rss, now.rss), held: Math.max(peak.held, now.held) }
}, 20).unref()
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'mark') {
    collect()
    baseline = peak = sample()
    console.log(JSON.stringify({ baseline }))
  } else if (line === 'peak') {
    console.log(JSON.stringify({ rss: peak.rss - baseline.rss, held: peak.held - baseline.held }))
  }
})
