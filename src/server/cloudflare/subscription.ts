import type { StoreListener } from '../stores/store.js'
import { ORIGIN, SUBSCRIBE_PATH } from './protocol.js'
import type { ToolsStateStub, WorkersWebSocket } from './types.js'

/** Waits before opening a dropped subscription again: doubling from 100 ms up to 5 s. */
const backoffMs = (attempt: number) => Math.min(100 * 2 ** attempt, 5_000)

/** Opens a WebSocket to the object that holds `channel`; resolves once the object listens on it for us. */
async function openSocket(stub: ToolsStateStub, channel: string): Promise<WorkersWebSocket> {
  const response = await stub.fetch(`${ORIGIN}${SUBSCRIBE_PATH}?channel=${encodeURIComponent(channel)}`, { headers: { upgrade: 'websocket' } })
  if (response.status !== 101 || !response.webSocket) throw new Error(`the state object answered ${response.status} to a subscription`)
  response.webSocket.accept()
  return response.webSocket
}

/**
 * Listens on `channel` over a WebSocket to its object. When the socket drops (the object restarted
 * or moved, the connection broke), it is opened again, with growing waits while that fails, and
 * `listener.missed` is called once it is back: what was published meanwhile is lost.
 */
export async function subscribeOver(stub: () => ToolsStateStub, channel: string, listener: StoreListener, report: (message: string) => void): Promise<() => Promise<void>> {
  let stopped = false
  let socket: WorkersWebSocket | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  const attach = (opened: WorkersWebSocket) => {
    socket = opened
    opened.addEventListener('message', ({ data }) => {
      if (socket === opened) listener.message(typeof data === 'string' ? data : new TextDecoder().decode(data as ArrayBuffer))
    })
    const lost = () => {
      if (stopped || socket !== opened) return
      socket = undefined
      reopen(0)
    }
    opened.addEventListener('close', lost)
    opened.addEventListener('error', lost)
  }
  const reopen = (attempt: number) => {
    retry = setTimeout(() => {
      openSocket(stub(), channel).then(
        (opened) => {
          if (stopped) return opened.close(1000, 'unsubscribed')
          attach(opened)
          listener.missed?.()
        },
        (error: unknown) => {
          report(`a subscription could not be opened again: ${error instanceof Error ? error.message : String(error)}`)
          if (!stopped) reopen(attempt + 1)
        },
      )
    }, backoffMs(attempt))
  }
  attach(await openSocket(stub(), channel))
  return async () => {
    stopped = true
    clearTimeout(retry)
    const open = socket
    socket = undefined
    try {
      open?.close(1000, 'unsubscribed')
    } catch {
      // Closed already.
    }
  }
}
