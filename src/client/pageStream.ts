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

  // A failed fetch of the stream's chunk is forgotten, so the next use fetches it again; the hub,
  // once made, takes the stream already named.
  const eventHub = () =>
    (hub ??= import('./events.js').then(
      ({ createEventHub }) => {
        const made = createEventHub({ fetch: settings.options.fetch, headers: () => streamHeaders(page) })
        made.offer(named ?? null, settings.base())
        return made
      },
      (error: unknown) => {
        hub = undefined
        throw error
      },
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
      // Not loaded (the connection dropped): the next use loads it, and jobs are polled meanwhile.
      eventHub().then((loaded) => loaded.offer(address, settings.base()), () => undefined)
    },
  }
}

export type PageStream = ReturnType<typeof pageStream>
