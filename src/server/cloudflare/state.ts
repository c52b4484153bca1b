import { runOperation, skipped, type StoreOperation } from '../stores/store.js'
import { BATCH_PATH, SUBSCRIBE_PATH, toWire } from './protocol.js'
import { entryTable } from './table.js'
import type { ToolsStateContext, WorkersWebSocket } from './types.js'

/** The runtime's WebSocketPair and a Response that hands over a WebSocket, absent from the DOM's types. */
type Pair = new () => { 0: WorkersWebSocket; 1: WorkersWebSocket }
type UpgradeResponse = new (body: null, init: { status: number; webSocket: WorkersWebSocket }) => Response

/** Expiries this close together are swept by one alarm: an object is not woken for each key. */
const SWEEP_SLACK_MS = 5_000
/** A socket tag is at most 256 characters: a longer channel's sockets share this one and are told apart by their attachment. */
const LONG_CHANNELS = '\u0000long'
const tagOf = (channel: string) => (channel.length <= 256 ? channel : LONG_CHANNELS)

/**
 * The Durable Object that holds the proxy's shared state on Cloudflare Workers: export it from the
 * Worker and bind it (SQLite-backed, see docs/cloudflare.md); `durableObjectStore` shards keys
 * over its objects. Each object runs a batch whole before the next request (its SQL calls are
 * synchronous), deletes expired entries on an alarm rather than a timer (an idle object sleeps),
 * and fans each message published on it out to the WebSockets subscribed to the channel, which
 * it holds hibernatable: an object with only quiet subscribers is evicted from memory and costs no
 * duration.
 */
export class ToolsProxyState {
  readonly #context: ToolsStateContext
  readonly #table: ReturnType<typeof entryTable>
  /** When the alarm is set for, as far as this instance knows (unknown after an eviction: set again). */
  #alarmAt: number | undefined

  constructor(context: ToolsStateContext) {
    this.#context = context
    this.#table = entryTable(context.storage.sql)
  }

  async fetch(request: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url)
    if (pathname === SUBSCRIBE_PATH && request.headers.get('upgrade') === 'websocket') return this.#subscribe(searchParams.get('channel') ?? '')
    if (pathname !== BATCH_PATH || request.method !== 'POST') return new Response('not found', { status: 404 })
    const operations = (await request.json()) as StoreOperation[]
    const answers = this.run(operations)
    await this.#scheduleSweep()
    return Response.json(toWire(answers))
  }

  /** Runs `operations` in order, at once (every method answers synchronously), as one step; answers each as `batch` does. */
  run(operations: readonly StoreOperation[]): unknown[] {
    const methods = { ...this.#table, publish: (channel: string, message: string) => this.#publish(channel, message) }
    const answers: unknown[] = []
    for (const operation of operations) answers.push(skipped(operation, answers) ? undefined : runOperation(methods, operation))
    return answers
  }

  async alarm(): Promise<void> {
    this.#table.sweep()
    this.#alarmAt = undefined
    await this.#scheduleSweep()
  }

  webSocketMessage(): void {
    // Subscribers only listen.
  }

  webSocketClose(socket: WorkersWebSocket, code: number, reason: string): void {
    // Completes the closing handshake the subscriber began (an unsubscribe, a Worker going away).
    try {
      socket.close(code === 1005 ? 1000 : code, reason)
    } catch {
      // Closed already.
    }
  }

  #subscribe(channel: string): Response {
    const pair = new (globalThis as unknown as { WebSocketPair: Pair }).WebSocketPair()
    pair[1].serializeAttachment({ channel })
    this.#context.acceptWebSocket(pair[1], [tagOf(channel)])
    return new (Response as unknown as UpgradeResponse)(null, { status: 101, webSocket: pair[0] })
  }

  #publish(channel: string, message: string): void {
    for (const socket of this.#context.getWebSockets(tagOf(channel))) {
      if ((socket.deserializeAttachment() as { channel?: string } | null)?.channel !== channel) continue
      try {
        socket.send(message)
      } catch {
        // A subscriber gone meanwhile: its close is on its way.
      }
    }
  }

  /** Sets the alarm for the next expiry when it is earlier than the one set. */
  async #scheduleSweep(): Promise<void> {
    const next = this.#table.nextExpiry()
    if (next === undefined || (this.#alarmAt !== undefined && this.#alarmAt <= next + SWEEP_SLACK_MS)) return
    this.#alarmAt = Math.max(next, Date.now()) + SWEEP_SLACK_MS
    await this.#context.storage.setAlarm(this.#alarmAt)
  }
}
