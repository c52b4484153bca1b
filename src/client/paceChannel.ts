/** What the tabs of one origin tell each other about a key: the service refused it until `until` (ms since the epoch). */
export interface PaceMessage {
  type: 'refused'
  until: number
}

function isPaceMessage(data: unknown): data is PaceMessage {
  const message = data as Partial<PaceMessage> | null
  return message?.type === 'refused' && typeof message.until === 'number' && message.until > 0
}

/**
 * The tabs' shared line for one key, where the platform has BroadcastChannel; `tell` sends a
 * refusal to the other tabs, `onRefused` hears theirs. It never keeps a server process alive.
 */
export function openPaceChannel(name: string | undefined, onRefused: (until: number) => void) {
  if (!name || typeof BroadcastChannel !== 'function') return undefined
  const channel = new BroadcastChannel(name)
  channel.onmessage = ({ data }: MessageEvent<unknown>) => {
    if (isPaceMessage(data)) onRefused(data.until)
  }
  ;(channel as { unref?: () => void }).unref?.()
  return {
    tell: (until: number) => channel.postMessage({ type: 'refused', until } satisfies PaceMessage),
  }
}
