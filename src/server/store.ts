/**
 * Where the proxy keeps what several instances must share: the users' spend counters and request
 * rates, the Idempotency-Keys already counted, who each file was first issued to, the service's
 * URLs a job's request carried, a job's latest status and who watches it, and the webhooks seen.
 * Handles are signed and need no store. Every operation is atomic on its key, so instances
 * sharing one store count exactly; `publish`/`subscribe` carry job updates between them. The
 * proxy gives every operation a second: a store slower than that, or failing, answers 503
 * `store_unavailable` and nothing is sent to the service.
 */
export interface ProxyStore {
  /**
   * Adds `delta` to the counter at `key` and returns its new value. A counter this call creates
   * expires `ttlMs` later; a `delta` of 0 (a read) or less on a missing (expired) counter creates
   * nothing and returns 0.
   */
  increment(key: string, delta: number, ttlMs: number): Promise<number>
  /** Sets `key` for `ttlMs` unless it is set: true when this call set it. */
  claim(key: string, ttlMs: number): Promise<boolean>
  /** Removes `key`. */
  release(key: string): Promise<void>
  /** The text at `key`, if set. */
  get(key: string): Promise<string | undefined>
  /** Sets `key` to `value` for `ttlMs`. */
  set(key: string, value: string, ttlMs: number): Promise<void>
  /** Sets `key` to `value` for `ttlMs` unless it is set; returns the value it holds (the first writer's). */
  hold(key: string, value: string, ttlMs: number): Promise<string>
  /** Sets `key` to `owner` for `ttlMs` when it is unset or already `owner`'s (a renewal): true when `owner` holds it now. */
  lease(key: string, owner: string, ttlMs: number): Promise<boolean>
  /** Sends `message` to every subscriber of `channel`, in every instance sharing the store. */
  publish(channel: string, message: string): Promise<void>
  /**
   * Calls `listener.message` with every message published on `channel` from now on, and
   * `listener.missed` when messages may have been lost (the connection came back); resolves once
   * listening, with a function that stops.
   */
  subscribe(channel: string, listener: StoreListener): Promise<() => Promise<void>>
}

/** What a subscriber of a store channel is told. */
export interface StoreListener {
  message(message: string): void
  /** Messages may have been lost meanwhile (the store's connection dropped and came back): read what matters again. */
  missed?(): void
}

/** The store failed or was too slow: the proxy answers 503 and sends nothing on. */
export class StoreUnavailable extends Error {}

/** The store with a time limit on every operation; a failure of either kind throws StoreUnavailable. */
export function guardStore(store: ProxyStore, limitMs: number): ProxyStore {
  /** `undo` is given what an operation answered after its caller was told it failed. */
  const guard =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>, undo?: (late: R) => unknown) =>
    (...args: A): Promise<R> =>
      new Promise<R>((resolve, reject) => {
        let timedOut = false
        const timer = setTimeout(() => {
          timedOut = true
          reject(new StoreUnavailable(`no answer in ${limitMs} ms`))
        }, limitMs)
        operation(...args).then(
          (value) => {
            clearTimeout(timer)
            if (timedOut) void Promise.resolve(undo?.(value)).catch(() => {})
            else resolve(value)
          },
          (error: unknown) => (clearTimeout(timer), reject(new StoreUnavailable(error instanceof Error ? error.message : String(error)))),
        )
      })
  return {
    increment: guard(store.increment.bind(store)),
    claim: guard(store.claim.bind(store)),
    release: guard(store.release.bind(store)),
    get: guard(store.get.bind(store)),
    set: guard(store.set.bind(store)),
    hold: guard(store.hold.bind(store)),
    lease: guard(store.lease.bind(store)),
    publish: guard(store.publish.bind(store)),
    // A subscription that lands after its caller gave up is nobody's: left, every message would be heard once more.
    subscribe: guard(store.subscribe.bind(store), (stop) => stop()),
  }
}
