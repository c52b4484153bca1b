// A store that holds the proxy to the key layout (src/server/keys.ts): every key and channel
// carries a hash tag, and every batch touches one tag, as a Redis Cluster (one slot per atomic
// step) and a Durable Object store (one object per tag) need. test/setup.ts puts it around every
// memoryStore, so each server test's flows are checked; a breach is recorded and fails the test.
import { hashTagOf, tagOfOperation, type ProxyStore, type StoreOperation } from '../../src/server/stores/store.js'

/** What broke the layout, since the last check (test/setup.ts empties it after each test). */
export const layoutBreaches: string[] = []

const untagged = (key: string) => hashTagOf(key) === key

/** `store`, checking every key, channel and batch it is given; a breach is recorded and refused (the proxy then answers 503). */
export function oneTagPerBatch(store: ProxyStore): ProxyStore {
  const breach = (what: string) => {
    layoutBreaches.push(what)
    return Promise.reject(new Error(what))
  }
  const checked =
    <A extends [string, ...unknown[]], R>(name: string, method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      untagged(args[0]) ? breach(`${name}: "${args[0]}" has no hash tag`) : method(...args)
  const batch = store.batch?.bind(store)
  return {
    increment: checked('increment', store.increment.bind(store)),
    claim: checked('claim', store.claim.bind(store)),
    release: checked('release', store.release.bind(store)),
    get: checked('get', store.get.bind(store)),
    set: checked('set', store.set.bind(store)),
    hold: checked('hold', store.hold.bind(store)),
    lease: checked('lease', store.lease.bind(store)),
    push: store.push && checked('push', store.push.bind(store)),
    list: store.list && checked('list', store.list.bind(store)),
    publish: checked('publish', store.publish.bind(store)),
    subscribe: checked('subscribe', store.subscribe.bind(store)),
    batch:
      batch &&
      ((operations: readonly StoreOperation[]) => {
        const tags = new Set(operations.map(tagOfOperation))
        const keys = operations.map((operation) => (operation.op === 'publish' ? operation.channel : operation.key))
        const bare = keys.find(untagged)
        if (bare !== undefined) return breach(`batch: "${bare}" has no hash tag`)
        if (tags.size > 1) return breach(`a batch touches ${tags.size} hash tags: ${keys.join(', ')}`)
        return batch(operations)
      }),
  }
}
