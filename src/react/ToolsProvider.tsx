'use client'
import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query'
import { useContext, useInsertionEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import { createToolsClient, type ToolsClient, type ToolsClientOptions } from '../tools/index.js'
import { DEFAULT_POLL_INTERVAL } from '../tools/internal.js'
import { ToolsContext, type ToolsContextValue } from './context.js'
import { fingerprint, clientIdentity } from './fingerprint.js'
import type { PartialMessages } from './messages.js'

const NO_OVERRIDES: PartialMessages = {}

interface ConnectionProps {
  /** The service's base address, ending in `/v1`. */
  baseUrl: string
  /** The key, or a function returning it; omit it behind a proxy that adds it. */
  apiKey?: ToolsClientOptions['apiKey']
  client?: never
}

interface ClientProps {
  /** A ready client, e.g. one made with `createToolsClient({ interpret, fileFields })`. */
  client: ToolsClient
  baseUrl?: never
  apiKey?: never
}

export type ToolsProviderProps = (ConnectionProps | ClientProps) & {
  /** Else an enclosing QueryClientProvider's client, else one of the provider's own. */
  queryClient?: QueryClient
  /** Milliseconds between job polls. Default: the given client's, else 3000. */
  pollInterval?: number
  /** Where the billing notice sends people to top up. */
  billingUrl?: string
  /** Overrides of any UI string, or a whole locale such as `ru`. */
  messages?: PartialMessages
  children?: ReactNode
}

/** Supplies the client, the query cache and the UI strings to every hook and component below it. */
export function ToolsProvider(props: ToolsProviderProps) {
  const { queryClient, billingUrl, messages, children } = props
  const pollInterval = props.pollInterval ?? props.client?.pollInterval ?? DEFAULT_POLL_INTERVAL
  const enclosing = useContext(QueryClientContext)
  const [ownQueryClient] = useState(() => (queryClient || enclosing ? null : new QueryClient()))

  // The latest key, read at every request: a new key takes effect without a new client.
  const apiKey = useRef(props.apiKey)
  useInsertionEffect(() => {
    apiKey.current = props.apiKey
  })

  const { baseUrl, client: given } = props
  const client = useMemo(
    () =>
      given ??
      // The key function reads the ref when a request is sent, never during render.
      // eslint-disable-next-line react-hooks/refs
      createToolsClient({
        baseUrl: baseUrl!,
        apiKey: async () => {
          const key = apiKey.current
          return typeof key === 'function' ? key() : (key ?? '')
        },
        pollInterval,
      }),
    [given, baseUrl, pollInterval],
  )

  const print = given ? clientIdentity(given) : fingerprint(baseUrl!, props.apiKey)
  const value = useMemo<ToolsContextValue>(
    () => ({
      client,
      fingerprint: print,
      pollInterval,
      billingUrl,
      messages: messages ?? NO_OVERRIDES,
    }),
    [client, print, pollInterval, billingUrl, messages],
  )

  const tree = <ToolsContext.Provider value={value}>{children}</ToolsContext.Provider>
  const cache = queryClient ?? ownQueryClient
  return cache ? <QueryClientProvider client={cache}>{tree}</QueryClientProvider> : tree
}
