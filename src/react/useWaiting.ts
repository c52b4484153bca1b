import { focusManager, onlineManager, skipToken, useQuery, type QueryClient } from '@tanstack/react-query'
import type { Presence, Waiting } from '../tools/index.js'
import { queryKey } from './keys.js'

/**
 * TanStack's focus and online managers as the client's presence: an app that configures them
 * (React Native, a test) configures polling too. Shown again or back online, a poll goes at once.
 */
export const queryPresence: Presence = {
  hidden: () => !focusManager.isFocused(),
  offline: () => !onlineManager.isOnline(),
  subscribe(wake) {
    const focus = focusManager.subscribe((focused) => focused && wake())
    const online = onlineManager.subscribe((isOnline) => isOnline && wake())
    return () => {
      focus()
      online()
    }
  },
}

/** The `onWait` of a job's poll: every observer of the job sees the wait, kept beside (not inside) its query. */
export function reportJobWaiting(queryClient: QueryClient, fingerprint: string, tool: string, jobId: string) {
  return (waiting: Waiting | null) => queryClient.setQueryData(queryKey(fingerprint, 'waiting', tool, jobId), waiting)
}

/** TanStack holds queries and mutations while offline: their wait, one object so it never looks new. */
export const OFFLINE: Waiting = Object.freeze({ reason: 'offline' })

/** What a job's poll is waiting for, or null; `paused` is its query's `fetchStatus === 'paused'`. */
export function useJobWaiting(
  fingerprint: string,
  tool: string,
  jobId: string | null | undefined,
  paused: boolean,
): Waiting | null {
  const { data } = useQuery<Waiting | null>({
    queryKey: queryKey(fingerprint, 'waiting', tool, jobId ?? ''),
    queryFn: skipToken,
  })
  return paused ? OFFLINE : (jobId && data) || null
}
