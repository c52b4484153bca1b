// The proxy alone in a process, for a clean reading of its memory. Built to JavaScript by the
// test that starts it. Argument: the service's base URL. Prints its own URL; then, on stdin,
// `mark` starts measuring and `peak` prints how far the RSS rose since (bytes), one line each.
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

let baseline = 0
let peak = 0
// Run with --expose-gc: garbage is collected before each reading, so the number is the memory
// the proxy holds, not the chunks already passed on that the collector has yet to reclaim.
const collect = (globalThis as { gc?: () => void }).gc
if (!collect) throw new Error('Start this script with node --expose-gc.')
setInterval(() => {
  collect()
  peak = Math.max(peak, process.memoryUsage().rss)
}, 20).unref()
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'mark') {
    collect()
    baseline = peak = process.memoryUsage().rss
    console.log(JSON.stringify({ baseline }))
  } else if (line === 'peak') {
    peak = Math.max(peak, process.memoryUsage().rss)
    console.log(JSON.stringify({ growth: peak - baseline }))
  }
})
