import type { createJobChannel } from './jobChannel.js'
import { type JobKey, type JobSnapshot, type JobStatusOptions } from './jobSnapshot.js'
import { keys } from './keys.js'
import { together, type ProxyStore } from './stores/store.js'

/**
 * Another instance reads the job: its news, when it comes. Its claim lasts as long as its read
 * may (`readMs`) and goes with its answer; each second without news the claim is tried again, and
 * undefined means this caller holds it now (or it outlived any read): read the job yourself.
 */
export async function winnersNews(
  { store, channel, options }: { store: ProxyStore; channel: ReturnType<typeof createJobChannel>; options: JobStatusOptions },
  key: JobKey,
  previous: JobSnapshot | undefined,
  claim: string,
): Promise<JobSnapshot | undefined> {
  const deadline = Date.now() + options.readMs
  for (;;) {
    const heard = await channel.newerWithin(key, previous, Math.max(0, Math.min(options.freshMs, deadline - Date.now())))
    if (heard) return heard
    if (Date.now() >= deadline) return undefined
    // The winner's answer is published only when it changed something: kept, it is read with the claim.
    const [text, claimed] = await together(store, [
      { op: 'get', key: keys.status(key) },
      { op: 'claim', key: claim, ttlMs: options.readMs },
    ])
    const kept = text ? (JSON.parse(text) as JobSnapshot) : undefined
    if (kept && kept.readAt > (previous?.readAt ?? 0)) {
      // Not needed: given back without waiting.
      if (claimed) void store.release(claim).catch(() => {})
      return kept
    }
    if (claimed) return undefined
  }
}
