import { callHook, thrownText } from '../partnerHooks.js'
import { hashTagOf, tagOfOperation, type ProxyStore, type StoreOperation } from '../stores/store.js'
import { BATCH_PATH, fromWire, ORIGIN } from './protocol.js'
import { subscribeOver } from './subscription.js'
import type { ToolsStateNamespace, ToolsStateStub } from './types.js'

export interface DurableObjectStoreOptions {
  /** Prepended to every object's name, so that two proxies can share one namespace. Default `tools-proxy:`. */
  prefix?: string
  /** Told when a subscription drops and cannot be opened again at once (the store answers 503 meanwhile). Default `console.error`. */
  onError?: (message: string) => void
}

/**
 * A store on Cloudflare Durable Objects, shared by every isolate of a Worker: pass the namespace
 * `ToolsProxyState` is bound to (`env.TOOLS_STATE`). Keys are sharded by their hash tag (a
 * person's keys in one object, a job's in one, a file's in one), so no object serves every
 * request. A batch (its keys share one tag) is one request and one atomic step. A subscription is a
 * hibernatable WebSocket to its channel's object, opened again when it drops (then `missed`).
 */
export function durableObjectStore<Id>(namespace: ToolsStateNamespace<Id>, { prefix = 'tools-proxy:', onError }: DurableObjectStoreOptions = {}): ProxyStore {
  // A stub is bound to the request it was made in (workerd refuses its use from another): one per use.
  const stubOf = (shard: string): ToolsStateStub => namespace.get(namespace.idFromName(`${prefix}${shard}`))
  const send = async (shard: string, operations: readonly StoreOperation[]): Promise<unknown[]> => {
    const response = await stubOf(shard).fetch(`${ORIGIN}${BATCH_PATH}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(operations) })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`the state object answered ${response.status}: ${text.slice(0, 200)}`)
    return fromWire(JSON.parse(text) as unknown[])
  }
  const batch = async (operations: readonly StoreOperation[]): Promise<unknown[]> => {
    const tags = new Set(operations.map(tagOfOperation))
    // One object runs a batch as one step; across objects nothing would (keys.ts gives each batch one tag).
    if (tags.size !== 1) throw new Error(`a batch touches ${tags.size} hash tags; one object runs a batch whole only when it touches one`)
    return send([...tags][0]!, operations)
  }
  const one = <T>(operation: StoreOperation) => batch([operation]).then(([answer]) => answer as T)
  const report = (message: string) => callHook(onError ?? console.error, [`[tools proxy] Durable Objects: ${message}`], (text) => console.error(`[tools proxy] onError failed: ${thrownText(text)}`))
  return {
    increment: (key, delta, ttlMs) => one({ op: 'increment', key, delta, ttlMs }),
    claim: (key, ttlMs) => one({ op: 'claim', key, ttlMs }),
    release: (key) => one({ op: 'release', key }),
    get: (key) => one({ op: 'get', key }),
    set: (key, value, ttlMs) => one({ op: 'set', key, value, ttlMs }),
    hold: (key, value, ttlMs) => one({ op: 'hold', key, value, ttlMs }),
    lease: (key, owner, ttlMs) => one({ op: 'lease', key, owner, ttlMs }),
    push: (key, value, max, ttlMs) => one({ op: 'push', key, value, max, ttlMs }),
    list: (key) => one({ op: 'list', key }),
    publish: (channel, message) => one({ op: 'publish', channel, message }),
    batch,
    subscribe: (channel, listener) => subscribeOver(() => stubOf(hashTagOf(channel)), channel, listener, report),
  }
}
