/** Tabs of one origin in one process: channels of one name hear each other's messages (not their own), as BroadcastChannel's do. */
export class TabChannel {
  static open = new Set<TabChannel>()
  onmessage: ((event: { data: unknown }) => void) | null = null
  constructor(readonly name: string) {
    TabChannel.open.add(this)
  }
  postMessage(data: unknown) {
    for (const other of TabChannel.open) {
      if (other !== this && other.name === this.name) queueMicrotask(() => other.onmessage?.({ data }))
    }
  }
  close() {
    TabChannel.open.delete(this)
  }
}
