import type { Post } from './send.js'
import type { ClientSettings } from './settings.js'

/**
 * The headers of one request: the client's own, the key, a call's body type and Idempotency-Key.
 * `page` is the page's name on the proxy's event stream, once a proxy has named one: calls and
 * the stream carry it, so the stream on its way takes the jobs the page starts meanwhile (and no
 * other tab's). Part of the sender's chunk.
 */
export function requestHeaders(settings: ClientSettings, key: string | undefined, post: Post | undefined, page: string | undefined): Headers {
  const result = new Headers(settings.options.headers)
  if (key) result.set('Authorization', `Bearer ${key}`)
  if (post?.contentType) result.set('Content-Type', post.contentType)
  if (post?.idempotencyKey) result.set('Idempotency-Key', post.idempotencyKey)
  if (page) result.set('X-Tools-Page', page)
  result.set('Accept', 'application/json, */*')
  return result
}
