'use client'
import { createContext, useContext } from 'react'
import type { ToolsClient } from '../tools/index.js'
import type { Journal } from './journal.js'
import type { PartialMessages } from './messages.js'

export interface ToolsContextValue {
  /** The client of the key now in effect. */
  client: ToolsClient
  /** Stands for the key in query keys: same key, same fingerprint; never the key itself. */
  fingerprint: string
  /** True when the page holds the service key itself (no proxy): there is no per-person cap to show. */
  keyInBrowser: boolean
  /** The provider's `user`: whose runs are shown. */
  user?: string
  /** The client bound to the key a fingerprint stands for, while this provider knows it: a job is read with the key that created it. */
  clientFor(fingerprint: string): ToolsClient | undefined
  /** Where runs are journaled. */
  journal: Journal
  pollInterval: number
  billingUrl?: string
  /** The provider's overrides of UI strings; components merge them over the defaults (`useMessages()`). */
  messages: PartialMessages
}

export const ToolsContext = createContext<ToolsContextValue | null>(null)

/** The provider's client, messages and settings; throws outside `<ToolsProvider>`. */
export function useToolsContext(): ToolsContextValue {
  const value = useContext(ToolsContext)
  if (!value) throw new Error('Tools hooks and components need a <ToolsProvider> around them: wrap your app in one.')
  return value
}
