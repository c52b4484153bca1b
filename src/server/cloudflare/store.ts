import { callHook, thrownText } from '../partnerHooks.js'
import { skipped, type ProxyStore, type StoreOperation } from '../stores/store.js'
import { BATCH_PATH, fromWire, ORIGIN, shardOf, shardOfOperation } from './protocol.js'
import { subscribeOver } from './subscription.js'
import type { ToolsStateNamespace, ToolsStateStub } from './types.js'

export interface DurableObjectStoreOptions {
  /** Prepended to every object's name, so that two proxies can share one namespace. Default `tools-proxy:`. */
  prefix?: string
  /** Told when a subscription drops and cannot be opened again at once (the store answers 503 meanwhile). Default `console.error`. */
  onError?: (message: string) => void
}

/** A stretch of a batch that goes to one object: its operations, and their indexes in the batch. */
type Stretch = { shard: string; indexes: number[] }

/** Splits a batch into runs of consecutive operations that go to the same object. */
function stretchesOf(operations: readonly StoreOperation[]): Stretch[] {
  const stretches: Stretch[] = []
  operations.forEach((operation, index) => {
    const shard = shardOfOperation(operation)
    const last = stretches.at(-1)
    if (last?.shard === shard) last.indexes.push(index)
    else stretches.push({ shard, indexes: [index] })
  })
  return stretches
}

/**
 * The operations of one stretch as its object runs them: a condition on an operation of the same
 * stretch points at its place there; one on an earlier stretch's is settled here (the operation
 * dropped when skipped, its condition dropped when met).
 */
function localized(operations: readonly StoreOperation[], stretch: Stretch, answers: readonly unknown[]) {
  const sent: { index: number; operation: StoreOperation }[] = []
  for (const index of stretch.indexes) {
    const { if: when, unless, ...operation } = operations[index]!
    const outside = (at: number | undefined) => at !== undefined && !stretch.indexes.includes(at)
    if (skipped({ ...operation, if: outside(when) ? when : undefined, unless: outside(unless) ? unless : undefined } as StoreOperation, answers)) continue
    const local = (at: number | undefined) => (at === undefined || outside(at) ? undefined : sent.findIndex((entry) => entry.index === at))
    const [localIf, localUnless] = [local(when), local(unless)]
    // A condition on an operation of this stretch that was itself dropped: that one answered undefined.
    if (localIf === -1) continue
    sent.push({ index, operation: { ...operation, ...(localIf === undefined ? {} : { if: localIf }), ...(localUnless === undefined || localUnless === -1 ? {} : { unless: localUnless }) } as StoreOperation })
  }
  return sent
}

/**
 * A store on Cloudflare Durable Objects, shared by every isolate of a Worker: pass the namespace
 * `ToolsProxyState` is bound to (`env.TOOLS_STATE`). Keys are sharded by their hash tag (a
 * person's keys in one object, a job's in one, a file's in one), so no object serves every
 * request. A batch whose operations share an object is one request and one atomic step; one that
 * spans objects goes as one request per run of operations, each atomic. A subscription is a
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
    const stretches = stretchesOf(operations)
    if (stretches.length === 1) return send(stretches[0]!.shard, operations)
    const answers: unknown[] = Array.from({ length: operations.length })
    for (const stretch of stretches) {
      const sent = localized(operations, stretch, answers)
      if (sent.length === 0) continue
      const got = await send(stretch.shard, sent.map(({ operation }) => operation))
      sent.forEach(({ index }, at) => (answers[index] = got[at]))
    }
    return answers
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
    subscribe: (channel, listener) => subscribeOver(() => stubOf(shardOf(channel)), channel, listener, report),
  }
}
