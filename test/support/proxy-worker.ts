// The proxy as a Cloudflare Worker, as a partner deploys it: settings from `env`, the user from a
// header standing in for a session. Bundled by the workerd tests and run there through Miniflare.
// With a TOOLS_STATE binding, its state is in Durable Objects (the class exported here), and
// `/store/…` reaches that store itself (storeProbe.ts), each object request counted, and
// `/object/…?tag=…` reaches a tag's object past the store (RestartableState).
import { createToolsProxy, memoryStore, type ToolsProxy } from '../../src/server/index.js'
import { durableObjectStore, ToolsProxyState, type ToolsStateContext, type ToolsStateNamespace } from '../../src/server/cloudflare/index.js'
import type { ProxyStore } from '../../src/server/stores/store.js'
import { TOOLS } from '../../src/tools/index.js'
import { serveStoreProbe } from './storeProbe.js'

export { ToolsProxyState }

type AlarmedContext = ToolsStateContext & { storage: { getAlarm(): Promise<number | null> } }

/**
 * ToolsProxyState as is, but `/restart` closes every socket it holds, as a deploy or a reset of
 * the object does, and `/storage` tells its rows and its alarm (`?alarm` runs the alarm now).
 */
export class RestartableState extends ToolsProxyState {
  readonly #context: AlarmedContext
  constructor(context: ToolsStateContext) {
    super(context)
    this.#context = context as AlarmedContext
  }
  override async fetch(request: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url)
    if (pathname === '/restart') {
      for (const socket of this.#context.getWebSockets()) socket.close(1012, 'restarting')
      return new Response(null, { status: 204 })
    }
    if (pathname !== '/storage') return super.fetch(request)
    if (searchParams.has('alarm')) await this.alarm()
    const rows = this.#context.storage.sql.exec('SELECT COUNT(*) AS rows FROM entries').toArray()[0]!.rows
    return Response.json({ rows, alarm: await this.#context.storage.getAlarm() })
  }
}

/** An object that fails every request, as one whose storage is overloaded or whose code throws. */
export class BrokenState {
  fetch(): Response {
    throw new Error('Durable Object storage operation exceeded timeout')
  }
}

interface Env {
  TOOLS_BASE_URL: string
  TOOLS_API_KEY: string
  TOOLS_PROXY_SECRET: string
  MAX_UPLOAD_BYTES: string
  TOOLS_STATE?: ToolsStateNamespace
  /** The spend cap per person, in calls a day. */
  CALLS_CAP?: string
  WEBHOOK_SECRET?: string
}

let proxy: ToolsProxy | undefined
let store: ProxyStore | undefined
/** Requests this isolate sent to state objects (a subscription's WebSocket opening is one). */
let objectRequests = 0

/** The namespace, each request to its objects counted. */
const counted = (namespace: ToolsStateNamespace): ToolsStateNamespace => ({
  idFromName: (name) => namespace.idFromName(name),
  get(id) {
    const stub = namespace.get(id)
    return { fetch: (...args) => (objectRequests++, stub.fetch(...args)) }
  },
})

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    store ??= env.TOOLS_STATE ? durableObjectStore(counted(env.TOOLS_STATE), { onError: () => {} }) : memoryStore()
    if (env.TOOLS_STATE && new URL(request.url).pathname === '/object-requests') return Response.json(objectRequests)
    const { pathname, searchParams } = new URL(request.url)
    if (env.TOOLS_STATE && pathname.startsWith('/object/')) {
      // `/object/restart?tag=…`, `/object/storage?tag=…`: to the tag's object, past the store.
      const object = env.TOOLS_STATE.get(env.TOOLS_STATE.idFromName(`tools-proxy:${searchParams.get('tag')}`))
      return object.fetch(`https://tools-state/${pathname.slice('/object/'.length)}?${searchParams}`) as Promise<Response>
    }
    const namespace = env.TOOLS_STATE && counted(env.TOOLS_STATE)
    const probed = namespace && (await serveStoreProbe((prefix) => (prefix === null ? store! : durableObjectStore(namespace, { prefix, onError: () => {} })), request))
    if (probed) return probed
    proxy ??= createToolsProxy({
      baseUrl: env.TOOLS_BASE_URL,
      apiKey: env.TOOLS_API_KEY,
      secret: env.TOOLS_PROXY_SECRET,
      basePath: '/api/tools',
      maxUploadBytes: Number(env.MAX_UPLOAD_BYTES),
      rate: { requests: 10_000, perMs: 1000 },
      store,
      limits: env.CALLS_CAP ? { calls: Number(env.CALLS_CAP), windowMs: 86_400_000 } : undefined,
      webhooks: env.WEBHOOK_SECRET ? { secret: env.WEBHOOK_SECRET } : undefined,
      onError: () => {},
      authorize: (request) => {
        const user = request.headers.get('x-user')
        return user ? { user, tools: TOOLS.map((tool) => tool.id) } : null
      },
    })
    return proxy.handle(request)
  },
}
