'use client'
import { useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { ToolsError, Usage } from '../tools/index.js'
import { useToolsContext } from './context.js'
import { queryKey } from './keys.js'

/** `useUsage`'s result: TanStack's query result over the person's `Usage`. */
export type UseUsageResult = UseQueryResult<Usage, ToolsError>

/** The longest delay a browser timer takes (about 24.8 days): a reset further off is read again then. */
const LONGEST_TIMER = 2 ** 31 - 1
/** Read a moment after the reset, so a server whose clock is a little behind has begun the new window. */
const AFTER_RESET = 1000

/**
 * The signed-in person's standing under the proxy's spend cap (`GET {baseUrl}/usage`): a TanStack
 * query, read again when one of this person's runs settles (the call counted, or given back) and
 * when the window resets. With the key in the page there is no proxy and no per-person cap: the
 * query is disabled (`isEnabled` false, no request, no data).
 *
 * @example
 * const { data } = useUsage()
 * data?.limit != null && <p>{data.limit - data.used} runs left</p>
 */
export function useUsage(): UseUsageResult {
  const { client, fingerprint, keyInBrowser } = useToolsContext()
  const queryClient = useQueryClient()
  const key = queryKey(fingerprint, 'usage')
  const query = useQuery<Usage, ToolsError>({
    queryKey: key,
    queryFn: ({ signal }) => client.usage({ signal }),
    enabled: !keyInBrowser,
    retry: false,
    refetchInterval: ({ state }) => {
      const resetAt = state.data?.resetAt
      return resetAt ? Math.min(LONGEST_TIMER, Math.max(0, Date.parse(resetAt) - Date.now()) + AFTER_RESET) : false
    },
  })

  useEffect(() => {
    if (keyInBrowser) return
    const runs = queryKey(fingerprint, 'run')
    // A run's call settling (the kit's own mutations) is when its count changed.
    return queryClient.getMutationCache().subscribe((event) => {
      if (event.type !== 'updated' || (event.action.type !== 'success' && event.action.type !== 'error')) return
      const mutationKey = event.mutation.options.mutationKey ?? []
      if (!runs.every((part, index) => mutationKey[index] === part)) return
      // A read already under way is reused, not cancelled, when several meters hear the same run.
      void queryClient.invalidateQueries({ queryKey: queryKey(fingerprint, 'usage'), exact: true }, { cancelRefetch: false })
    })
  }, [queryClient, fingerprint, keyInBrowser])

  return query
}
