'use client'
import { createElement, useEffect, useState, useSyncExternalStore, type ComponentType, type ForwardedRef, type ReactNode } from 'react'
import { withRef } from './classNames.js'

/** A component whose code is a chunk of its own, and the way to fetch that chunk ahead of time. */
export interface LazyPart<P> {
  Part: (props: P) => ReactNode
  /** Fetches the chunk (once for every caller); a failed fetch is forgotten, so the next one tries again. */
  load(): Promise<void>
}

/** What stands in for a part while its chunk comes: `failed` once a fetch failed (offline), until the next try. */
export type Stand<P> = ComponentType<P & { failed: boolean }>

/**
 * A part of a page that only some pages need (the file drop, a result's viewers), fetched when it
 * is first rendered: until then `Stand` shows in its place. Once fetched it renders at once, with
 * no stand-in, on every later mount. A fetch that fails is tried again when the connection
 * returns, and online after a pause of 1 s, doubling up to 16 s (a dropped request); `Stand` says so meanwhile. No Suspense: the server renders the stand-in,
 * and hydration meets the same (even where the chunk has already come), then shows the part.
 */
export function lazyPart<P extends object, E = HTMLElement>(
  fetchChunk: () => Promise<ComponentType<P>>,
  Stand: Stand<P>,
): LazyPart<P & { ref?: ForwardedRef<E> }> {
  let loaded: ComponentType<P> | undefined
  let pending: Promise<ComponentType<P>> | undefined
  // Every mounted part, told when the chunk comes.
  const arrivals = new Set<() => void>()
  const subscribe = (onArrival: () => void) => {
    arrivals.add(onArrival)
    return () => void arrivals.delete(onArrival)
  }
  const load = () =>
    (pending ??= fetchChunk().then(
      (component) => {
        loaded = component
        for (const onArrival of arrivals) onArrival()
        return component
      },
      (error: unknown) => {
        pending = undefined
        throw error
      },
    ))

  const Part = withRef(function LazyPart(props: P, ref: ForwardedRef<E>) {
    // The chunk's component is module state; on the server and while hydrating, the stand-in.
    const part = useSyncExternalStore(subscribe, () => loaded, () => undefined)
    const [failed, setFailed] = useState(false)
    useEffect(() => {
      if (loaded) return
      let live = true
      let timer: ReturnType<typeof setTimeout> | undefined
      let failures = 0
      const attempt = () => {
        clearTimeout(timer)
        setFailed(false)
        load().catch(() => {
          if (!live) return
          setFailed(true)
          // Online, a dropped request: fetched again after a pause (longer each time); offline, when back.
          if (navigator.onLine) timer = setTimeout(attempt, 1000 << Math.min(failures++, 4)) // 1 s to 16 s
        })
      }
      attempt()
      window.addEventListener('online', attempt)
      return () => {
        live = false
        clearTimeout(timer)
        window.removeEventListener('online', attempt)
      }
    }, [])
    return part ? createElement(part, { ...props, ref }) : createElement(Stand, { ...props, failed })
  })
  return { Part, load: () => load().then(() => undefined) }
}
