import { errorAnswer } from './answers.js'
import { closeUnread } from './bodies.js'
import { createContext, type ProxyContext } from './context.js'
import { jobOnStream } from './jobAnswers.js'
import { AnswerTooLarge } from './links.js'
import { thrownText } from './partnerHooks.js'
import type { ToolsProxy, ToolsProxyOptions } from './options.js'
import { ProxyError } from './proxyError.js'
import { route } from './router.js'
import { StoreUnavailable } from './stores/store.js'
import { UpstreamFailure } from './upstream.js'

export type { ProxyLimits, ProxyRate, ProxyUser, ToolsProxy, ToolsProxyOptions } from './options.js'
export type { ProxyEvent, ProxyOutcome, ProxyRequestEvent, ProxyRouteKind, ProxyStreamEvent, ProxyUpstreamEvent } from './telemetry/proxyEvent.js'

/**
 * A server-side proxy to the Tools API: the browser talks to it with no key (`<ToolsProvider
 * baseUrl={basePath}>`), it adds the service key. Deny by default: `authorize` decides who may
 * call which tool; jobs, files and Idempotency-Keys are bound to the user; bodies stream through;
 * every wait has a time limit and every buffer a cap.
 */
export function createToolsProxy(options: ToolsProxyOptions): ToolsProxy {
  const context = createContext(options, jobOnStream)
  warnOfIsolateState(options)
  // Each request observed whole, the proxy's own failures included: its span, its metrics, its event.
  return {
    handle: (request) => context.telemetry.observe(request, async () => closeUnread(request, await answer(context, request))),
    close: () => context.store.close?.() ?? Promise.resolve(),
  }
}

/** The route's answer, or the proxy's own for what failed on the way. */
async function answer(context: ProxyContext, request: Request): Promise<Response> {
  try {
    return await route(context, request)
  } catch (error) {
    if (error instanceof ProxyError) {
      if (error.report) context.service.report(error.report)
      return error.toResponse()
    }
    if (error instanceof StoreUnavailable) {
      context.service.report(`the store failed: ${error.message}`)
      return errorAnswer(503, 'storeUnavailable', 'The tools are unavailable for a moment; try again shortly.', {
        headers: { 'Retry-After': '1' },
      })
    }
    if (error instanceof AnswerTooLarge || (error instanceof UpstreamFailure && error.reason === 'too-large')) {
      return errorAnswer(502, 'answerTooLarge', 'The tools service’s answer is too large to pass on.')
    }
    context.service.report(`${request.method} ${new URL(request.url).pathname}: ${thrownText(error)}`)
    return errorAnswer(500, 'failed', 'The request could not be handled.')
  }
}

let warnedOfIsolateState = false

/**
 * On Workers, a proxy with no `store` keeps caps, rates and jobs in one isolate's memory, which
 * other isolates never see (and a proxy made per request, in none): the developer is told once.
 */
function warnOfIsolateState(options: ToolsProxyOptions): void {
  if (options.store || warnedOfIsolateState || globalThis.navigator?.userAgent !== 'Cloudflare-Workers') return
  warnedOfIsolateState = true
  console.warn(
    '[tools proxy] On Cloudflare Workers with no `store`, the proxy keeps its caps, rates and jobs in this isolate’s memory: ' +
      'other isolates do not see them, and a proxy made per request keeps nothing. Make it once per isolate (`proxy ??= createToolsProxy(…)`) ' +
      'with `store: durableObjectStore(env.TOOLS_STATE)`: see docs/cloudflare.md.',
  )
}
