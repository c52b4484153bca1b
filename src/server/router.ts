import { TOOLS, type Tool, type ToolId } from '../tools/index.js'
import { errorAnswer } from './answers.js'
import { refuse } from './bodies.js'
import { callRoute } from './routes/callRoute.js'
import type { ProxyContext } from './context.js'
import { downloadRoute } from './routes/downloadRoute.js'
import { eventsRoute } from './routes/eventsRoute.js'
import { crossSite, overRate, rateLimited, signedInUser, toolNotAllowed, type Caller } from './guards.js'
import { jobRoute } from './routes/jobRoute.js'
import type { ProxyRouteKind } from './telemetry/proxyEvent.js'
import { usageRoute } from './routes/usageRoute.js'
import { webhookRoute } from './routes/webhookRoute.js'

/** A route a path under `basePath` matched: its method, and who answers it. */
interface Route {
  method: 'GET' | 'POST'
  kind: ProxyRouteKind
  /** Its path after `basePath` with every handle and token a placeholder: the telemetry's `http.route`. */
  name: string
  /** The tool the user must be allowed. */
  tool?: ToolId
  /** A signed-in user's request (checked for site, sign-in and rate first). */
  run?: (context: ProxyContext, request: Request, user: Caller) => Promise<Response>
  /**
   * Not counted under `rate`, which guards against a person's flood, not the kit following its own
   * jobs: a job read costs the service at most one read per job a second, whoever asks (jobStatus),
   * and a user's open streams are capped by `streamsPerUser`, their opening by `streamRate`.
   */
  followsJobs?: true
  /** The service's own call: its signature, not a session, says who sent it. */
  open?: (context: ProxyContext, request: Request) => Promise<Response>
}

const byPath = new Map<string, Tool>(TOOLS.map((tool) => [tool.path, tool]))

/** Every route, by the path after `basePath`; the first that matches answers. */
const ROUTES: ((rest: string) => Route | undefined)[] = [
  (rest) => {
    const tool = byPath.get(rest)
    return tool && { method: 'POST', kind: 'call', name: tool.path, tool: tool.id, run: (context, request, user) => callRoute(context, request, user, tool) }
  },
  (rest) => (rest === '/events' ? { method: 'GET', kind: 'events', name: rest, followsJobs: true, run: eventsRoute } : undefined),
  (rest) => (rest === '/webhooks' ? { method: 'POST', kind: 'webhooks', name: rest, open: webhookRoute } : undefined),
  (rest) => (rest === '/usage' ? { method: 'GET', kind: 'usage', name: rest, run: usageRoute } : undefined),
  (rest) => {
    const [, path, handle] = /^(\/.+)\/jobs\/([^/]+)$/.exec(rest) ?? []
    const tool = path ? byPath.get(path) : undefined
    if (tool?.mode !== 'deferred') return undefined
    const run: Route['run'] = (context, request, user) => jobRoute(context, request, user, tool, decodeSegment(handle!))
    return { method: 'GET', kind: 'job', name: `${tool.path}/jobs/{handle}`, tool: tool.id, followsJobs: true, run }
  },
  (rest) => {
    const [, token] = /^\/artifacts\/([^/]+)(?:\/[^/]*)?$/.exec(rest) ?? []
    if (token === undefined) return undefined
    const run: Route['run'] = (context, request, user) => downloadRoute(context, request, user, decodeSegment(token))
    return { method: 'GET', kind: 'download', name: '/artifacts/{token}/{name}', run }
  },
]

/** Finds a request's route and lets it through the guards every route shares: method, site, sign-in, rate (downloads, usage; a call's with its cap, in callRoute), tool. */
export async function route(context: ProxyContext, request: Request): Promise<Response> {
  const { basePath, timeoutMs } = context
  const { pathname } = new URL(request.url)
  const rest = pathname.startsWith(`${basePath}/`) ? pathname.slice(basePath.length) : undefined
  let matched: Route | undefined
  for (const match of rest === undefined ? [] : ROUTES) if ((matched = match(rest!))) break
  // A request to no route, by another method or from another site is refused unread, at once: its connection closes after the answer (closeUnread).
  if (!matched) return errorAnswer(404, 'notFound', 'Not found.')
  const { method, kind, tool } = matched
  context.telemetry.note(request, { kind, route: basePath + matched.name, tool })
  if (request.method !== method && !(method === 'GET' && request.method === 'HEAD')) {
    return errorAnswer(405, 'methodNotAllowed', `Use ${method}.`, { headers: { Allow: method } })
  }
  if (matched.open) return matched.open(context, request)
  if (method === 'POST' && crossSite(request, context.allowedOrigins)) {
    return errorAnswer(403, 'crossSite', 'This request came from another site.')
  }
  const user = await signedInUser(context, request)
  // Perhaps a page whose session ended: what of its body comes at once is read, so it sees the answer.
  if (!user) return refuse(request, errorAnswer(401, 'unauthorized', 'Sign in to use the tools.'), SIGNED_OUT_DRAIN_MS)
  context.telemetry.note(request, { user: user.user })
  const allowed = !tool || user.tools.includes(tool)
  // A call the user may make is counted under the rate with its place under the cap, in one trip (callRoute).
  const wait = matched.followsJobs || (kind === 'call' && allowed) ? undefined : await overRate(context, user)
  // A signed-in person's refusal is answered once some of the body is read (refuse): their page sees it, not a reset.
  if (wait !== undefined) return refuse(request, rateLimited(wait), timeoutMs)
  if (!allowed) return refuse(request, toolNotAllowed(tool), timeoutMs)
  return matched.run!(context, request, user)
}

/** How long a body is read before a 401 is answered: a page's upload arrives at once, a trickle is not waited for. */
const SIGNED_OUT_DRAIN_MS = 1000

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
