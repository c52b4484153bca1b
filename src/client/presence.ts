import type { Presence } from './definition.js'

interface Page {
  document?: EventTarget & { visibilityState?: string }
  navigator?: { onLine?: boolean }
  addEventListener?: EventTarget['addEventListener']
  removeEventListener?: EventTarget['removeEventListener']
}

const page = globalThis as Page

/** The page's own visibility and connection; in a server or worker without them, always present and online. */
export const pagePresence: Presence = {
  hidden: () => page.document?.visibilityState === 'hidden',
  offline: () => page.navigator?.onLine === false,
  subscribe(wake) {
    const shown = () => {
      if (!pagePresence.hidden()) wake()
    }
    page.addEventListener?.('online', wake)
    page.document?.addEventListener('visibilitychange', shown)
    return () => {
      page.removeEventListener?.('online', wake)
      page.document?.removeEventListener('visibilitychange', shown)
    }
  },
}
