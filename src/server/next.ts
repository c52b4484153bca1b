import type { ToolsProxy } from './proxy.js'

/** The route handlers of a catch-all route: every route of the proxy answers `GET` or `POST`. */
export interface ToolsRouteHandlers {
  GET(request: Request): Promise<Response>
  POST(request: Request): Promise<Response>
}

/**
 * The App Router's handlers for one catch-all route (`app/api/tools/[...path]/route.ts`) over a
 * proxy: calls, job reads, files, usage, the event stream and the webhooks. Given a function, the
 * proxy is made on the first request (again after a failure), so `next build` needs no secrets.
 *
 * @example
 * export const { GET, POST } = createRouteHandlers(() => createToolsProxy({ … }))
 * export const runtime = 'nodejs'
 * export const dynamic = 'force-dynamic'
 * export const maxDuration = 60
 */
export function createRouteHandlers(proxy: ToolsProxy | (() => ToolsProxy | Promise<ToolsProxy>)): ToolsRouteHandlers {
  let made: Promise<ToolsProxy> | undefined
  const make = () =>
    (made ??= (async () => (typeof proxy === 'function' ? proxy() : proxy))().catch((error: unknown) => {
      made = undefined
      throw error
    }))
  const handle = async (request: Request) => (await make()).handle(request)
  return { GET: handle, POST: handle }
}
