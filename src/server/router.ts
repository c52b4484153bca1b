import { TOOLS, type Tool, type ToolId } from '../tools/index.js'
import { errorAnswer } from './answers.js'
import { refuse, tooLarge } from './bodies.js'
import { callRoute } from './routes/callRoute.js'
import type { ProxyContext } from './context.js'
import { downloadRoute } from './routes/downloadRoute.js'
import { eventsRoute } from './routes/eventsRoute.js'
import { crossSite, crossSiteAnswer, overRate, rateLimited, refusedCounted, signedInUser, toolNotAllowed, type Caller } from './guards.js'
import { jobRoute } from './routes/jobRoute.js'
import type { ProxyRouteKind } from './telemetry/proxyEvent.js'
import { usageRoute } from './routes/usageRoute.js'
import { webhookRoute } from './routes/webhookRoute.js'

/** A check a request passes before its route runs, in the order its route lists them (guards.ts). */
export type Guard =
  /** A POST from a page of another site is refused (403). */
  | 'sameSite'
  /** `authorize` names the user, or 401. */
  | 'signedIn'
  /** Counted under the user's `rate` (429 over it). */
  | 'rate'
  /**
   * Counted under `rate` with the call's place under the cap, in the route's one trip to the
   * store; a request a later guard refuses is counted here first, and answers 429 when over it.
   */
  | 'rateWithCap'
  /** Counted under the user's `streamRate`, for opening an event stream. */
  | 'streamRate'
  /** The user may use the route's tool, or 403. */
  | 'tool'
  /** A body declared larger than `maxUploadBytes` is refused unread (413). */
  | 'uploadCap'

/** A route a path under `basePath` matched: its method, the guards it passes, and who answers it. */
interface Route {
  method: 'GET' | 'POST'
  kind: ProxyRouteKind
  /** Its path after `basePath` with every handle and token a placeholder: the telemetry's `http.route`. */
  name: string
  /** The tool the user must be allowed. */
  tool?: ToolId
  /**
   * What a request passes before `run`, in order. Job reads and event streams are not counted under
   * `rate`, which guards against a person's flood, not the kit following its own jobs: a job read
   * costs the service at most one read per job a second, whoever asks (jobStatus), and a user's
   * open streams are capped by `streamsPerUser`, their opening by `streamRate`.
   */
  guards: readonly Guard[]
  /** A signed-in user's request, once through its guards. */
  run?: (context: ProxyContext, request: Request, user: Caller) => Promise<Response>
  /** The service's own call: its signature, not a session, says who sent it. */
  open?: (context: ProxyContext, request: Request) => Promise<Response>
}

const byPath = new Map<string, Tool>(TOOLS.map((tool) => [tool.path, tool]))

/** Every route, by the path after `basePath`; the first that matches answers. */
const ROUTES: ((rest: string) => Route | undefined)[] = [
  (rest) => {
    const tool = byPath.get(rest)
    const run: Route['run'] = (context, request, user) => callRoute(context, request, user, tool!)
    return tool && { method: 'POST', kind: 'call', name: tool.path, tool: tool.id, guards: ['sameSite', 'signedIn', 'rateWithCap', 'tool', 'uploadCap'], run }
  },
  (rest) => (rest === '/events' ? { method: 'GET', kind: 'events', name: rest, guards: ['signedIn', 'streamRate'], run: eventsRoute } : undefined),
  (rest) => (rest === '/webhooks' ? { method: 'POST', kind: 'webhooks', name: rest, guards: [], open: webhookRoute } : undefined),
  (rest) => (rest === '/usage' ? { method: 'GET', kind: 'usage', name: rest, guards: ['signedIn', 'rate'], run: usageRoute } : undefined),
  (rest) => {
    const [, path, handle] = /^(\/.+)\/jobs\/([^/]+)$/.exec(rest) ?? []
    const tool = path ? byPath.get(path) : undefined
    if (tool?.mode !== 'deferred') return undefined
    const run: Route['run'] = (context, request, user) => jobRoute(context, request, user, tool, decodeSegment(handle!))
    return { method: 'GET', kind: 'job', name: `${tool.path}/jobs/{handle}`, tool: tool.id, guards: ['signedIn', 'tool'], run }
  },
  (rest) => {
    const [, token] = /^\/artifacts\/([^/]+)(?:\/[^/]*)?$/.exec(rest) ?? []
    if (token === undefined) return undefined
    const run: Route['run'] = (context, request, user) => downloadRoute(context, request, user, decodeSegment(token))
    return { method: 'GET', kind: 'download', name: '/artifacts/{token}/{name}', guards: ['signedIn', 'rate'], run }
  },
]

/** Finds a request's route, checks its method, and lets it through the guards its row lists. */
export async function route(context: ProxyContext, request: Request): Promise<Response> {
  const { basePath } = context.settings
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
  const passed = await throughGuards(context, request, matched)
  return passed instanceof Response ? passed : matched.run!(context, request, passed)
}

/** The signed-in user once the route's guards let the request through, or the first refusal. */
async function throughGuards(context: ProxyContext, request: Request, { guards, tool }: Route): Promise<Caller | Response> {
  const { timeoutMs } = context.settings
  let user: Caller | undefined
  let countedLater = false
  // A signed-in person's refusal is answered once some of the body is read (refuse): their page sees it, not a reset.
  const refused = (answer: Response) => (countedLater ? refusedCounted(context, request, user!, answer) : refuse(request, answer, timeoutMs))
  for (const guard of guards) {
    const foreign = guard === 'sameSite' ? crossSite(request, context.settings.allowedOrigins) : undefined
    if (foreign) return crossSiteAnswer(context, request, foreign)
    if (guard === 'signedIn') {
      user = await signedInUser(context, request)
      // Perhaps a page whose session ended: what of its body comes at once is read, so it sees the answer.
      if (!user) return refuse(request, errorAnswer(401, 'unauthorized', 'Sign in to use the tools.'), SIGNED_OUT_DRAIN_MS)
      context.telemetry.note(request, { user: user.user })
    }
    if (guard === 'rateWithCap') countedLater = true
    if (guard === 'rate' || guard === 'streamRate') {
      const wait = await overRate(context, user!, guard)
      if (wait !== undefined) return refuse(request, rateLimited(wait), timeoutMs)
    }
    if (guard === 'tool' && tool && !user!.tools.includes(tool)) return refused(toolNotAllowed(tool))
    if (guard === 'uploadCap' && Number(request.headers.get('content-length')) > context.settings.maxUploadBytes) {
      return refused(tooLarge(context.settings.maxUploadBytes))
    }
  }
  return user!
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
