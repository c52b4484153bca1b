import type { EventHub } from './events.js'
import type { Post } from './send.js'
import type { ClientSettings } from './settings.js'

/**
 * The page's place on the proxy's event stream. Behind a proxy that names one, jobs are pushed to
 * the page instead of polled; the stream's code loads only then, so a page that talks to the
 * service directly never carries it.
 */
export function pageStream(settings: ClientSettings) {
  let named: string | undefined
  const page = Math.random().toString(36).slice(2, 14)
  let hub: Promise<EventHub> | undefined

  function headers(key: string | undefined, post: Post | undefined, asPage = false): Headers {
    const result = new Headers(settings.options.headers)
    if (key) result.set('Authorization', `Bearer ${key}`)
    if (post?.contentType) result.set('Content-Type', post.contentType)
    if (post?.idempotencyKey) result.set('Idempotency-Key', post.idempotencyKey)
    // Behind a proxy with a stream, calls and the stream name this page: its stream, on its way,
    // takes the jobs the page starts meanwhile (and no other tab's).
    if (named && (post || asPage)) result.set('X-Tools-Page', page)
    result.set('Accept', 'application/json, */*')
    return result
  }

  const eventHub = () =>
    (hub ??= import('./events.js').then(({ createEventHub }) =>
      createEventHub({ fetch: settings.options.fetch, headers: async () => headers(await settings.resolveKey(), undefined, true) }),
    ))

  return {
    headers,
    eventHub,
    /** Whether a proxy has named a stream: jobs are followed on it. */
    named: () => named !== undefined,
    /** Takes the stream a proxy's answer names (`X-Tools-Events`). */
    offer(response: Response) {
      const address = response.headers.get('x-tools-events')
      if (!address || address === named) return
      named = address
      void eventHub().then((loaded) => loaded.offer(address, settings.base()))
    },
  }
}

export type PageStream = ReturnType<typeof pageStream>
