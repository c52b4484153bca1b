'use client'
import { createElement, useEffect, useState, type ComponentType, type ForwardedRef, type ReactNode } from 'react'
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
 * no stand-in, on every later mount. A fetch that fails (offline) is tried again when the
 * connection returns; `Stand` says so meanwhile. No Suspense: the server renders the stand-in,
 * and hydration meets the same.
 */
export function lazyPart<P extends object, E = HTMLElement>(
  fetchChunk: () => Promise<ComponentType<P>>,
  Stand: Stand<P>,
): LazyPart<P & { ref?: ForwardedRef<E> }> {
  let loaded: ComponentType<P> | undefined
  let pending: Promise<ComponentType<P>> | undefined
  const load = () =>
    (pending ??= fetchChunk().then(
      (component) => (loaded = component),
      (error: unknown) => {
        pending = undefined
        throw error
      },
    ))

  const Part = withRef(function LazyPart(props: P, ref: ForwardedRef<E>) {
    // Renders again once the chunk has come (the component itself is module state).
    const [, setArrived] = useState(false)
    const [failed, setFailed] = useState(false)
    useEffect(() => {
      if (loaded) return
      let live = true
      const attempt = () => {
        setFailed(false)
        load().then(
          () => live && setArrived(true),
          () => live && setFailed(true),
        )
      }
      attempt()
      window.addEventListener('online', attempt)
      return () => {
        live = false
        window.removeEventListener('online', attempt)
      }
    }, [])
    return loaded ? createElement(loaded, { ...props, ref }) : createElement(Stand, { ...props, failed })
  })
  return { Part, load: () => load().then(() => undefined) }
}
