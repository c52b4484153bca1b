import type { Presence, Waiting } from '../../src/tools/index.js'

/**
 * A page's presence that a test switches: `offline()`, then `online()`, which wakes every wait on
 * it (after `onOnline`, for what comes back with the connection, such as a chunk that loads again).
 */
export function switchablePresence({ offline = false, onOnline }: { offline?: boolean; onOnline?: () => void } = {}) {
  const state = { offline }
  const wakes = new Set<() => void>()
  const presence: Presence = {
    hidden: () => false,
    offline: () => state.offline,
    subscribe: (wake) => (wakes.add(wake), () => wakes.delete(wake)),
  }
  const online = () => {
    state.offline = false
    onOnline?.()
    for (const wake of [...wakes]) wake()
  }
  return { presence, online, offline: () => void (state.offline = true) }
}

/**
 * An online page whose every wait is cut short: each `retrying` wait wakes at once (as the
 * connection's return would), so a chunk's fetches again take no real time. `waits` lists them.
 */
export function retriesCutShort() {
  const { presence, online } = switchablePresence()
  const waits: (Waiting | null)[] = []
  const onWait = (waiting: Waiting | null) => {
    waits.push(waiting)
    // After the wait has subscribed to the presence it is given.
    if (waiting) queueMicrotask(online)
  }
  return { presence, waits, onWait }
}
