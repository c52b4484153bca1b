'use client'
import { QueryClient, QueryClientContext, QueryClientProvider } from '@tanstack/react-query'
import { useContext, useEffect, useMemo, useState, type ReactNode } from 'react'
import { createToolsClient, type ToolsClient, type ToolsClientOptions } from '../tools/index.js'
import { checkBaseUrl, DEFAULT_POLL_INTERVAL, loadChecks, loadSender, whenIdle } from '../tools/internal.js'
import { ToolsContext, type ToolsContextValue } from './context.js'
import { createJournal, defaultStore, journalStore, memoryJournal, type JournalStore, type WebStorage } from './journal.js'
import type { PartialMessages } from './messages.js'
import { useKeyIdentity } from './useKeyIdentity.js'

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
  /**
   * Who is signed in (any stable id; stored only hashed). Each person's runs are kept apart and
   * come back at their next sign-in. Behind a proxy without it, runs are kept in memory only.
   */
  user?: string
  /** Else an enclosing QueryClientProvider's client, else one of the provider's own. */
  queryClient?: QueryClient
  /** Milliseconds between job polls. Default: the given client's, else 3000. */
  pollIntervalMs?: number
  /** @deprecated Use `pollIntervalMs`; kept working through 0.x. */
  pollInterval?: number
  /** Where the billing notice sends people to top up. */
  billingUrl?: string
  /** Overrides of any UI string, or a whole locale such as `ru`. */
  messages?: PartialMessages
  /**
   * Where runs are journaled: default localStorage in a browser, memory elsewhere; `false` for
   * nowhere; a `JournalStore` or any Web Storage (`getItem/setItem/removeItem/key/length`).
   */
  journal?: JournalStore | WebStorage | false
  children?: ReactNode
}

let warnedAnonymous = false

/**
 * The journal of a page behind a proxy with no `user`: the first run kept in it says, once per
 * page, why a reload will lose it from view (a signed-out visitor who runs nothing hears nothing).
 */
function warnOnFirstRun(store: JournalStore): JournalStore {
  return {
    ...store,
    set(key, run) {
      // Written inline, as React libraries do, so a production build folds it to `false` and drops
      // the message; `typeof process` keeps a page with no bundler and no Node from throwing.
      if (typeof process !== 'undefined' && process.env.NODE_ENV !== 'production' && !warnedAnonymous) {
        warnedAnonymous = true
        console.warn(
          '@cabinet/tools-react: <ToolsProvider> has no `user` behind a proxy, so runs are kept in memory and a reload loses them from view. ' +
            'Pass user={the signed-in person’s id} to keep each person’s runs across reloads, apart from the next person’s.',
        )
      }
      return store.set(key, run)
    },
  }
}

/** Supplies the client, the query cache and the UI strings to every hook and component below it. */
export function ToolsProvider(props: ToolsProviderProps) {
  const { queryClient, billingUrl, messages, children, user, client: given } = props
  // A given client is read for its configuration, never its identity: the same page after a
  // reload, or two clients made alike, find the same runs.
  const baseUrl = given ? given.baseUrl : props.baseUrl
  // At once, at the first render: a build with its setting unset must not post to `/undefined/…`.
  if (!given) checkBaseUrl(baseUrl)
  const apiKey = given ? given.apiKey : props.apiKey
  const pollInterval = props.pollIntervalMs ?? props.pollInterval ?? given?.pollInterval ?? DEFAULT_POLL_INTERVAL
  const enclosing = useContext(QueryClientContext)
  const [ownQueryClient] = useState(() => (queryClient || enclosing ? null : new QueryClient()))
  const [journals] = useState(() => ({
    kept: createJournal(props.journal === false ? null : journalStore(props.journal ?? defaultStore())),
    memory: createJournal(warnOnFirstRun(memoryJournal())),
  }))
  // Behind a proxy every person on a browser has the same key (none): with nobody named, the
  // browser's storage would hand one person's runs to the next, so they stay in this page.
  const keyInBrowser = Boolean(apiKey)
  const anonymous = !keyInBrowser && !user && props.journal === undefined
  const journal = anonymous ? journals.memory : journals.kept
  const { key, fingerprint: print, latest } = useKeyIdentity(baseUrl, apiKey, user)
  // The input checks and the sender are chunks of their own: fetched once the page is idle, before a first Run.
  useEffect(() => whenIdle(() => Promise.all([loadChecks(), loadSender()])), [])

  // One client per key: a job keeps being read with the key that created it. The poll interval
  // takes one route, the context, to every job read (a given client's is read once, above).
  const [clients] = useState(() => new Map<string, ToolsClient>())
  const value = useMemo<ToolsContextValue>(() => {
    let client = given ?? clients.get(print)
    if (!client) {
      // The key function reads the ref when a request is sent, never during render.
      client = createToolsClient({
        baseUrl,
        // Until a key function has answered, requests read it (and the latest one) when sent.
        apiKey:
          key ??
          (async () => {
            const current = latest.current
            return (typeof current === 'function' ? await current() : current) ?? ''
          }),
      })
      clients.set(print, client)
    }
    return {
      client,
      fingerprint: print,
      keyInBrowser,
      user,
      // A given client is the only one: the map stays empty.
      clientFor: (other) => (other === print ? client : clients.get(other)),
      journal,
      pollInterval,
      billingUrl,
      messages: messages ?? NO_OVERRIDES,
    }
  }, [given, clients, print, keyInBrowser, user, key, latest, baseUrl, pollInterval, journal, billingUrl, messages])

  const tree = <ToolsContext.Provider value={value}>{children}</ToolsContext.Provider>
  const cache = queryClient ?? ownQueryClient
  return cache ? <QueryClientProvider client={cache}>{tree}</QueryClientProvider> : tree
}
