import { focusManager, onlineManager, skipToken, useQuery, type QueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import type { JobPhase, Presence, Waiting } from '../tools/index.js'
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

/** What a job's poll is waiting for, or null. */
export function useJobWaiting(fingerprint: string, tool: string, jobId: string | null | undefined): Waiting | null {
  const { data } = useQuery<Waiting | null>({
    queryKey: queryKey(fingerprint, 'waiting', tool, jobId ?? ''),
    queryFn: skipToken,
  })
  return (jobId && data) || null
}

/** TanStack holds queries and mutations while offline: their wait, one object so it never looks new. */
export const OFFLINE: Waiting = Object.freeze({ reason: 'offline' })

/** A run's own wait while its call is sent (`options` go in the call's), then its job's. */
export function useRunWaiting() {
  const [sending, onWait] = useState<Waiting | null>(null)
  return {
    options: { onWait, presence: queryPresence },
    /** The wait that matters in `phase`: the call's while submitting (or held offline), the job's while it runs. */
    select: (phase: 'idle' | 'submitting' | JobPhase, job: Waiting | null, paused: boolean) =>
      paused ? OFFLINE : phase === 'submitting' ? sending : phase === 'pending' || phase === 'running' ? job : null,
  }
}
