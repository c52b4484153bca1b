import type { Presence } from '../../src/tools/index.js'

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
