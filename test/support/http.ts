import { serve } from 'srvx'
import { createMockService, type MockServiceOptions } from '../../src/mock/index.js'

/** A Fetch handler on a free loopback port, through srvx's Node adapter (a real HTTP server). */
export async function listen(fetch: (request: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
  await server.ready()
  const url = server.url!.replace(/\/+$/, '')
  return { url, close: () => server.close(true) }
}

/**
 * The simulated service behind a real HTTP port (its in-process `fetch` answers each request), so
 * requests reach it over the network as they would a live service.
 */
export async function listenMockService(options: MockServiceOptions = {}) {
  // The service's base URL holds the port, so the service is made once the server listens.
  const server = await listen((request) => service.fetch(request))
  const service = createMockService({ jobDurationMs: 30, ...options, baseUrl: `${server.url}/v1` })
  return { service, baseUrl: service.baseUrl, close: server.close }
}
