import type { CallOptions, ToolDefinition, UploadProgress, Waiting } from './definition.js'
import type { ToolsError } from './errors.js'
import { requestHeaders } from './headers.js'
import { createPacer, type Pacer } from './pacer.js'
import type { PageStream } from './pageStream.js'
import type { SenderHost } from './senderHost.js'
import { backoff, errorFromResponse } from './refusals.js'
import type { ClientSettings } from './settings.js'
import { transmit } from './transport.js'

export { requestHeaders }

// A chunk of its own, fetched as a page goes idle and awaited by the first request: it takes what
// it shares with the first load from its host (SenderHost, senderHost.ts), so no bundler splits a
// third chunk off.

/** What a tool call adds to a request: it is a POST, with a body and an Idempotency-Key. */
export interface Post {
  body: BodyInit
  contentType?: string
  idempotencyKey: string
  onUploadProgress?: CallOptions['onUploadProgress']
}

/** Tells `onWait` only of real changes: estimates move by milliseconds as the line moves. */
function waitTeller(onWait: CallOptions['onWait']) {
  let shown: Waiting | null = null
  return (next: Waiting | null) => {
    const same = next?.reason === shown?.reason && Math.abs((next?.until ?? 0) - (shown?.until ?? 0)) < 1000
    if (same && next?.attempt === shown?.attempt) return
    shown = next
    onWait?.(next)
  }
}

const pausedTooLong = (ToolsError: SenderHost['ToolsError'], name: string | undefined, until: number) =>
  new ToolsError('rate-limit', `${name ?? 'artifact'}: 429 rate-limit: paused past the wait budget`, {
    status: 429,
    tool: name,
    retryAfter: until - Date.now(),
  })

/** One pacer per key, named by its fingerprint: the key itself is kept nowhere. */
function pacersByKey(settings: ClientSettings, kit: SenderHost) {
  const pacers = new Map<string, Pacer>()
  return (key: string | undefined): Pacer => {
    const name = `@cabinet/tools-react:${kit.fingerprint(settings.options.baseUrl, key)}`
    let pacer = pacers.get(name)
    if (!pacer) pacers.set(name, (pacer = createPacer(kit, name)))
    return pacer
  }
}

/** The request itself, once its turn has come: the response, or the network error that stands for it. */
function exchanger(settings: ClientSettings, stream: PageStream, kit: SenderHost) {
  return async (name: string | undefined, url: string, key: string | undefined, signal?: AbortSignal, post?: Post) => {
    try {
      const method = post ? ('POST' as const) : ('GET' as const)
      const headers = requestHeaders(settings, key, post, post && stream.page())
      const request = { method, url, headers, body: post?.body, signal, onUploadProgress: post?.onUploadProgress }
      return await transmit(request, settings.options.fetch, kit.loadUploads)
    } catch (cause) {
      if (signal?.aborted) throw kit.abortError(name, cause)
      return new kit.ToolsError('network', 'The service could not be reached.', { tool: name, cause })
    }
  }
}

/**
 * Sends one logical request: a tool call when `post` is given, else a free GET (of a job, or of an
 * artifact, which belongs to no tool); resolves with a 2xx response. It waits its turn with every
 * request of its key, and retries as its kind allows: a 429 while its wait budget lasts, a 5xx or
 * a lost connection `retries` times (a lost one waits for the device to come online).
 */
export function createSender(settings: ClientSettings, stream: PageStream, kit: SenderHost) {
  const { policy, interpret } = settings
  const { ToolsError, abortError, isToolsError, pagePresence, readBody, sleep } = kit
  const pacerFor = pacersByKey(settings, kit)
  const exchange = exchanger(settings, stream, kit)

  return async function send(
    tool: ToolDefinition | undefined,
    url: string,
    { signal, onWait, presence = pagePresence }: Pick<CallOptions, 'signal' | 'onWait' | 'presence'>,
    post?: Post,
  ): Promise<Response> {
    const isCall = !!post
    // A lost synchronous answer may already be billed: only a 429 (never processed) is retried.
    let transient = !isCall || tool?.mode === 'deferred'
    const upload = restartingUpload(post)
    const name = tool?.id
    const deadline = Date.now() + policy.maxWait
    const wait = waitTeller(onWait)
    let failures = 0
    let refusals = 0
    try {
      for (;;) {
        if (signal?.aborted) throw abortError(name, signal.reason)
        const key = await settings.resolveKey()
        const pacer = pacerFor(key)
        const onHold = (until: number) => wait({ reason: 'rate-limit', until })
        await pacer.take(isCall, { signal, tool: name, deadline, onHold, expire: (until) => pausedTooLong(ToolsError, name, until) })
        wait(null)
        const outcome = await exchange(name, url, key, signal, upload.post)
        let error: ToolsError
        if (isToolsError(outcome)) {
          error = outcome
          // An upload cut midway never reached the service whole, so nothing was processed: it
          // starts again from its first byte, with its Idempotency-Key, even for a synchronous tool.
          if (upload.cut()) transient = true
          if (transient && presence.offline() && Date.now() < deadline) {
            // Offline is not the service's fault: wait for the connection, within the budget.
            wait({ reason: 'offline' })
            await sleep(deadline - Date.now(), signal, name, presence.subscribe)
            continue
          }
        } else {
          if (outcome.ok) return (pacer.answer(isCall), outcome)
          error = errorFromResponse(kit, outcome, await readBody(outcome), interpret, tool, isCall, () => backoff(refusals++, policy))
          const delay = error.kind === 'rate-limit' ? error.retryAfter : undefined
          pacer.answer(isCall, delay)
          // A 429: the pacer holds this request, with every other of the key, until the pause is over.
          if (delay !== undefined && delay <= policy.maxRetryAfterMs && Date.now() + delay <= deadline) continue
          if (error.kind !== 'server') throw error
        }
        if (!transient || failures >= policy.retries) throw error
        const delay = backoff(failures++, policy)
        wait({ reason: 'retrying', until: Date.now() + delay, attempt: failures })
        // A lost connection is tried again at once when it returns or the page is shown.
        await sleep(delay, signal, name, error.kind === 'network' ? presence.subscribe : undefined)
      }
    } finally {
      wait(null)
    }
  }
}

/**
 * A call's post whose upload progress tells each try after the first that was cut off midway
 * (`restarts`), so a bar going back to 0 says why. `cut()`: the last try was cut before its last byte.
 */
function restartingUpload(post: Post | undefined) {
  const tell = post?.onUploadProgress
  let restarts = 0
  let sent: UploadProgress | undefined
  return {
    post: tell ? { ...post!, onUploadProgress: (progress: UploadProgress) => tell((sent = restarts ? { ...progress, restarts } : progress)) } : post,
    cut() {
      const midway = !!sent && sent.loaded < sent.total
      if (sent) restarts++
      sent = undefined
      return midway
    },
  }
}

export type Send = ReturnType<typeof createSender>
