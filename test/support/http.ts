import { getResponse } from 'msw'
import { serve } from 'srvx'
import { createMockService, type MockService, type MockServiceOptions } from '../../src/mock/index.js'

/** A Fetch handler on a free loopback port, through srvx's Node adapter (a real HTTP server). */
export async function listen(fetch: (request: Request) => Response | Promise<Response>) {
  const server = serve({ fetch, port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false })
  await server.ready()
  const url = server.url!.replace(/\/+$/, '')
  return { url, close: () => server.close(true) }
}

/**
 * The simulated service behind a real HTTP port: its MSW handlers answer through msw's
 * `getResponse`, so requests reach it over the network as they would a live service.
 */
export async function listenMockService(options: MockServiceOptions = {}) {
  // The service's base URL holds the port, so the handlers are made once the server listens.
  const handlers: MockService['handlers'] = []
  const server = await listen(async (request) => {
    const answer = await getResponse(handlers, request)
    return answer ?? new Response('No handler.', { status: 404 })
  })
  const service = createMockService({ jobDuration: 30, ...options, baseUrl: `${server.url}/v1` })
  handlers.push(...service.handlers)
  return { service, baseUrl: service.baseUrl, close: server.close }
}
