/**
 * The few Cloudflare Workers shapes the store uses, written out so that a partner's project needs
 * no `@cloudflare/workers-types` to take these declarations (a real `DurableObjectNamespace`,
 * `DurableObjectState` or `WebSocket` fits them).
 */

/** A WebSocket as the Workers runtime has it: accepted by hand, told by events. */
export interface WorkersWebSocket {
  accept(): void
  send(message: string): void
  close(code?: number, reason?: string): void
  addEventListener(type: 'message' | 'close' | 'error', listener: (event: { readonly type: string; readonly data?: unknown }) => void): void
  serializeAttachment(value: unknown): void
  deserializeAttachment(): unknown
}

/** What a Durable Object stub answers: a Response, with the client end of a WebSocket when it accepted one. */
export interface ToolsStateResponse {
  readonly status: number
  text(): Promise<string>
  readonly webSocket?: WorkersWebSocket | null
}

/** A stub of one Durable Object: requests go to it by `fetch`. */
export interface ToolsStateStub {
  fetch(input: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<ToolsStateResponse>
}

/** A Durable Object namespace binding (`env.TOOLS_STATE`), as `durableObjectStore` uses it. */
export interface ToolsStateNamespace<Id = unknown> {
  idFromName(name: string): Id
  get(id: Id): ToolsStateStub
}

/** A SQLite-backed object's SQL storage, as `ToolsProxyState` uses it. */
export interface ToolsStateSql {
  exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] }
}

/** The `DurableObjectState` the runtime constructs `ToolsProxyState` with. */
export interface ToolsStateContext {
  readonly storage: {
    readonly sql: ToolsStateSql
    setAlarm(scheduledTime: number): Promise<void>
  }
  acceptWebSocket(socket: WorkersWebSocket, tags?: string[]): void
  getWebSockets(tag?: string): WorkersWebSocket[]
}
