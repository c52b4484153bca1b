import type { EventHub } from './events.js'
import type { ClientSettings } from './settings.js'

/**
 * The page's place on the proxy's event stream. Behind a proxy that names one, jobs are pushed to
 * the page instead of polled; the stream's code loads only then, so a page that talks to the
 * service directly never carries it. `streamHeaders` gives the stream's request headers, naming
 * the page.
 */
export function pageStream(settings: ClientSettings, streamHeaders: (page: string) => Promise<Headers>) {
  let named: string | undefined
  const page = Math.random().toString(36).slice(2, 14)
  let hub: Promise<EventHub> | undefined

  const eventHub = () =>
    (hub ??= import('./events.js').then(({ createEventHub }) =>
      createEventHub({ fetch: settings.options.fetch, headers: () => streamHeaders(page) }),
    ))

  return {
    /** The page's name on the stream, for a call's headers, once a proxy has named one. */
    page: () => (named ? page : undefined),
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
