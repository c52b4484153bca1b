'use client'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import { useToolsContext } from './context.js'
import { belongsTo } from './fingerprint.js'
import { QUERY_NAMESPACE } from './keys.js'

/**
 * For sign-out: a function that forgets every run of a person (by default the one signed in, the
 * provider's `user`; or the id it is given), whatever key made the run, and drops their jobs and
 * files from the query cache. Their jobs still exist on the service; nothing is cancelled or billed.
 *
 * ```tsx
 * const forgetRuns = useForgetRuns()
 * const signOut = async () => { await forgetRuns(); await auth.signOut() }
 * ```
 */
export function useForgetRuns(): (user?: string) => Promise<void> {
  const { journal, user: signedIn } = useToolsContext()
  const queryClient = useQueryClient()
  return useCallback(async (user = signedIn) => {
    await journal.forget((print) => belongsTo(print, user))
    queryClient.removeQueries({
      predicate: ({ queryKey: [namespace, print] }) =>
        namespace === QUERY_NAMESPACE && typeof print === 'string' && belongsTo(print, user),
    })
  }, [journal, signedIn, queryClient])
}
