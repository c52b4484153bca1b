import { errorAnswer, relayedHeaders } from './answers.js'
import { callHook } from './partnerHooks.js'
import { endedIn, type JobKey, type JobSnapshot } from './jobs/jobStatus.js'
import type { ToolsProxyOptions } from './options.js'
import type { Telemetry } from './telemetry/telemetry.js'
import { createScrubber } from './scrub.js'
import { failureOf, isRedirect, readCapped, upstreamTimer, UpstreamFailure } from './upstream.js'

/** The service's answer as the proxy passes it on: its status, the headers that may cross, its body's text. */
export type Answer = Pick<JobSnapshot, 'status' | 'headers' | 'body'>

/**
 * How an upload meets a redirect. Node's fetch keeps a copy of a streamed body in any mode but
 * 'error', in case it must send it again (a 200 MB upload held whole): there, 'error'. Cloudflare
 * Workers have no 'error' mode: there, 'manual', which never resends a body either.
 */
const UPLOAD_REDIRECT: RequestRedirect = globalThis.navigator?.userAgent === 'Cloudflare-Workers' ? 'manual' : 'error'

/** The service as the routes reach it: with the key, never following a redirect, answers read up to a cap. */
export function createService(
  options: Pick<ToolsProxyOptions, 'apiKey' | 'secret' | 'fetch' | 'onError'>,
  base: string,
  limits: { maxAnswerBytes: number; timeoutMs: number },
  telemetry: Telemetry,
) {
  const fetcher = options.fetch ?? globalThis.fetch
  const scrub = createScrubber(base)
  let lastKey = typeof options.apiKey === 'string' ? options.apiKey : ''
  const apiKey = async () => (lastKey = typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey)

  /** A log line with the key and the secret struck out, whatever an error message carried. */
  const report = (message: string) => {
    let line = `[tools proxy] ${message}`
    for (const secret of [lastKey, options.secret]) if (secret) line = line.split(secret).join('[redacted]')
    // A partner's onError that fails is told to the console, never to the request.
    callHook(options.onError ?? console.error, [line], (text) => console.error(`[tools proxy] onError failed: ${text}`))
  }

  /** A request to the service with the key; never follows a redirect (no runtime's fetch may take the key elsewhere). */
  const sendWithKey = async (url: string, init: RequestInit & { duplex?: 'half' }) => {
    const headers = new Headers(init.headers)
    headers.set('Authorization', `Bearer ${await apiKey()}`)
    headers.set('Accept', 'application/json, */*')
    try {
      return await fetcher(url, { ...init, headers, redirect: init.body ? UPLOAD_REDIRECT : 'manual' })
    } catch (error) {
      // 'error' mode: the service redirected an upload.
      if (init.body && UPLOAD_REDIRECT === 'error' && /redirect/i.test(String((error as { cause?: unknown })?.cause ?? error))) {
        throw new UpstreamFailure('redirect', 'an upload was redirected')
      }
      throw error
    }
  }

  /** A request to the service, `path` under its base, told to the telemetry; `from` is the page's request it serves, if one. */
  const send = (path: string, init: RequestInit & { duplex?: 'half' }, from?: Request) =>
    telemetry.upstream({ method: init.method ?? 'GET', path, from }, () => sendWithKey(base + path, init))

  /** The service's answer, read whole up to `maxAnswerBytes`, with the headers that may cross. */
  const answerOf = async (upstream: Response): Promise<Answer> => ({
    status: upstream.status,
    headers: relayedHeaders(upstream.headers, scrub),
    body: await readCapped(upstream, limits.maxAnswerBytes),
  })

  /** One read of a job, as the job status keeps it. */
  const readJob = async ({ toolPath, jobId }: JobKey): Promise<JobSnapshot> => {
    const timer = upstreamTimer(limits.timeoutMs)
    timer.start()
    try {
      const upstream = await send(`${toolPath}/jobs/${encodeURIComponent(jobId)}`, { signal: timer.signal })
      if (isRedirect(upstream)) throw new UpstreamFailure('redirect', 'a job read was redirected')
      const answer = await answerOf(upstream)
      const ok = answer.status >= 200 && answer.status < 300
      return { ...answer, readAt: Date.now(), terminal: ok && endedIn(answer.body) }
    } catch (error) {
      throw failureOf(error, timer)
    } finally {
      timer.stop()
    }
  }

  /** The browser's answer when a request to the service came to nothing. */
  function failed(what: string, failure: UpstreamFailure, request: Pick<Request, 'signal'>): Response {
    if (failure.reason === 'aborted' || request.signal.aborted) return errorAnswer(499, 'clientClosed', 'The request was cancelled.')
    if (failure.reason === 'timeout') return errorAnswer(504, 'upstreamTimeout', 'The tools service did not answer in time.')
    if (failure.reason === 'redirect') {
      report(`${what}: ${failure.message}`)
      return errorAnswer(502, 'upstreamRedirect', 'The tools service answered with a redirect.')
    }
    if (failure.reason === 'too-large') return errorAnswer(502, 'answerTooLarge', 'The tools service’s answer is too large to pass on.')
    report(`${what}: the service could not be reached (${failure.message})`)
    return errorAnswer(502, 'serviceUnreachable', 'The tools service could not be reached.')
  }

  return { base, fetch: fetcher, scrub, send, answerOf, readJob, failed, report }
}

export type Service = ReturnType<typeof createService>
