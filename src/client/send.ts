import type { CallOptions, ToolDefinition, Waiting } from './definition.js'
import { abortError, isToolsError, ToolsError } from './errors.js'
import { createPacer, type Pacer } from './pacer.js'
import type { PageStream } from './pageStream.js'
import { pagePresence } from './presence.js'
import { errorFromResponse, readBody } from './response.js'
import { backoff, sleep } from './retry.js'
import { fingerprint } from './runs/fingerprint.js'
import type { ClientSettings } from './settings.js'
import { transmit } from './transport.js'

/** What a tool call adds to a request: it is a POST, with a body and an Idempotency-Key. */
export interface Post {
  body: BodyInit
  contentType?: string
  idempotencyKey: string
  onUploadProgress?: CallOptions['onUploadProgress']
}

type SendOptions = Pick<CallOptions, 'signal' | 'onWait' | 'presence'>

/** One request's course: what it is, its wait budget, and its tries so far. */
interface Course {
  tool: ToolDefinition | undefined
  url: string
  post: Post | undefined
  signal: AbortSignal | undefined
  presence: NonNullable<CallOptions['presence']>
  /** A lost synchronous answer may already be billed: only a 429 (never processed) is retried. */
  transient: boolean
  deadline: number
  wait(next: Waiting | null): void
  failures: number
  refusals: number
}

/** Tells `onWait` only of real changes: estimates move by milliseconds as the line moves. */
function waitTeller(onWait: SendOptions['onWait']) {
  let shown: Waiting | null = null
  return (next: Waiting | null) => {
    const same = next?.reason === shown?.reason && Math.abs((next?.until ?? 0) - (shown?.until ?? 0)) < 1000
    if (same && next?.attempt === shown?.attempt) return
    shown = next
    onWait?.(next)
  }
}

/** What every request of a client shares: its settings, its page's stream, its pacers. */
interface Parts {
  settings: ClientSettings
  stream: PageStream
  pacerFor(key: string | undefined): Pacer
}

/** The request itself, once its turn has come: the response, or the error that stands for it. */
async function exchange({ settings, stream }: Parts, course: Course, key: string | undefined): Promise<Response | ToolsError> {
  const { post, signal, url } = course
  try {
    const request = { method: post ? ('POST' as const) : ('GET' as const), url, headers: stream.headers(key, post), body: post?.body, signal }
    return await transmit({ ...request, onUploadProgress: post?.onUploadProgress }, settings.options.fetch)
  } catch (cause) {
    if (signal?.aborted) throw abortError(course.tool?.id, cause)
    return new ToolsError('network', 'The service could not be reached.', { tool: course.tool?.id, cause })
  }
}

/** One try: the response if it succeeded, `undefined` to try again (after its wait), or the error thrown. */
async function attempt(parts: Parts, course: Course): Promise<Response | undefined> {
  const { settings, pacerFor } = parts
  const { policy, interpret } = settings
  const { tool, signal, presence, post, deadline, wait } = course
  const name = tool?.id
  const isCall = !!post
  if (signal?.aborted) throw abortError(name, signal.reason)
  const key = await settings.resolveKey()
  const pacer = pacerFor(key)
  await pacer.take(isCall, {
    signal,
    tool: name,
    deadline,
    onHold: (until) => wait({ reason: 'rate-limit', until }),
    expire: (until) =>
      new ToolsError('rate-limit', `${name ?? 'artifact'}: 429 rate-limit: paused past the wait budget`, {
        status: 429,
        tool: name,
        retryAfter: until - Date.now(),
      }),
  })
  wait(null)
  const outcome = await exchange(parts, course, key)
  let error: ToolsError
  if (isToolsError(outcome)) {
    error = outcome
    if (course.transient && presence.offline() && Date.now() < deadline) {
      // Offline is not the service's fault: wait for the connection, within the budget.
      wait({ reason: 'offline' })
      return void (await sleep(deadline - Date.now(), signal, name, presence.subscribe))
    }
  } else {
    if (outcome.ok) return (pacer.answer(isCall), outcome)
    error = errorFromResponse(outcome, await readBody(outcome), interpret, tool, isCall, () => backoff(course.refusals++, policy))
    if (error.kind === 'rate-limit') {
      const delay = error.retryAfter
      pacer.answer(isCall, delay)
      if (delay > policy.maxRetryAfter || Date.now() + delay > deadline) throw error
      // The pacer holds this request, with every other of the key, until the pause is over.
      return undefined
    }
    pacer.answer(isCall)
    if (error.kind !== 'server') throw error
  }
  if (!course.transient || course.failures >= policy.retries) throw error
  const delay = backoff(course.failures++, policy)
  wait({ reason: 'retrying', until: Date.now() + delay, attempt: course.failures })
  // A lost connection is tried again at once when it returns or the page is shown.
  await sleep(delay, signal, name, error.kind === 'network' ? presence.subscribe : undefined)
}

/**
 * Sends one logical request: a tool call when `post` is given, else a free GET (of a job, or of an
 * artifact, which belongs to no tool); resolves with a 2xx response. It waits its turn with every
 * request of its key, and retries as its kind allows: a 429 while its wait budget lasts, a 5xx or
 * a lost connection `retries` times (a lost one waits for the device to come online).
 */
export function createSender(settings: ClientSettings, stream: PageStream) {
  const { policy } = settings
  // One pacer per key, named by its fingerprint: the key itself is kept nowhere.
  const pacers = new Map<string, Pacer>()
  function pacerFor(key: string | undefined): Pacer {
    const name = `@cabinet/tools-react:${fingerprint(settings.options.baseUrl, key)}`
    let pacer = pacers.get(name)
    if (!pacer) pacers.set(name, (pacer = createPacer(name)))
    return pacer
  }

  return async function send(tool: ToolDefinition | undefined, url: string, opts: SendOptions, post?: Post): Promise<Response> {
    const wait = waitTeller(opts.onWait)
    const { signal, presence = pagePresence } = opts
    const transient = !post || tool?.mode === 'deferred'
    const course: Course = { tool, url, post, signal, presence, transient, deadline: Date.now() + policy.maxWait, wait, failures: 0, refusals: 0 }
    try {
      for (;;) {
        const response = await attempt({ settings, stream, pacerFor }, course)
        if (response) return response
      }
    } finally {
      wait(null)
    }
  }
}

export type Send = ReturnType<typeof createSender>
