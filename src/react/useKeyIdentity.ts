'use client'
import { useEffect, useInsertionEffect, useRef, useState, type RefObject } from 'react'
import type { ToolsClientOptions } from '../tools/index.js'
import { fingerprint } from './fingerprint.js'

/** A key function's answer; one that throws is left to fail the request that needs it. */
function tryKey(read: () => string | Promise<string>): string | Promise<string> | undefined {
  try {
    return read()
  } catch {
    return undefined
  }
}

/** Who the provider's requests speak for: the key's value (once known) and the fingerprint of base URL, key and person. */
export interface KeyIdentity {
  /** The key's value; undefined behind a proxy, or while a key function's promise is pending. */
  key: string | undefined
  /** Stands for base URL, key and person in query keys and the journal; never the key itself. */
  fingerprint: string
  /** The key as last given, for requests sent before an async key function has answered. */
  latest: RefObject<ToolsClientOptions['apiKey']>
}

/**
 * A key function is read at every render: the fingerprint follows the key it returns, not its
 * identity, so an inline `apiKey={() => key}` keeps one cache, and a function that starts
 * returning another account's key gets another cache at once. An async one is awaited; until it
 * answers, the fingerprint is one of its own that matches no journaled run.
 */
export function useKeyIdentity(baseUrl: string, apiKey: ToolsClientOptions['apiKey'], user: string | undefined): KeyIdentity {
  const answer = typeof apiKey === 'function' ? tryKey(apiKey) : apiKey
  const awaited = typeof answer === 'object'
  const [returned, setReturned] = useState<string>()
  const latest = useRef(apiKey)
  useInsertionEffect(() => {
    latest.current = apiKey
  })
  useEffect(() => {
    if (!awaited) return
    let live = true
    answer.then(
      (key) => live && setReturned(key),
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [answer, awaited])
  const key = awaited ? returned : answer
  return { key, fingerprint: fingerprint(baseUrl, awaited && key === undefined ? null : key, user), latest }
}
