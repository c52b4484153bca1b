/**
 * Where the proxy keeps what several instances must share: the users' spend counters and request
 * rates, the Idempotency-Keys already counted, who each file was first issued to, the service's
 * URLs a job's request carried, a job's latest status and who watches it, and the webhooks seen.
 * Handles are signed and need no store. Every operation is atomic on its key, so instances
 * sharing one store count exactly; `publish`/`subscribe` carry job updates between them. A
 * request's operations go together through `batch` where the store has it (one round trip). The
 * proxy gives every operation (and every batch) a second: a store slower than that, or failing,
 * answers 503 `store_unavailable` and nothing is sent to the service.
 *
 * Keys and channels: every key and channel carries one hash tag (`{…}`, as Redis Cluster reads
 * it: the text between the first `{` and the next `}`; `hashTagOf`); all keys of one batch, and
 * the channel of a publish in it, share one tag; a store may place data by the tag (a Redis
 * Cluster slot, a Durable Object). A store's own `prefix` goes before the key, outside the tag, so
 * it never moves a key: it must not hold `{`.
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
  /**
   * Sets `key` to `value` for `ttlMs` unless it is set to another value (set to `value` already, it
   * is renewed for `ttlMs`); returns the value it holds (the first writer's).
   */
  hold(key: string, value: string, ttlMs: number): Promise<string>
  /** Sets `key` to `owner` for `ttlMs` when it is unset or already `owner`'s (a renewal): true when `owner` holds it now. */
  lease(key: string, owner: string, ttlMs: number): Promise<boolean>
  /**
   * Appends `value` to the list at `key`, which keeps its last `max` and expires `ttlMs` after its
   * last push. Optional, with `list`: without them, a job started while its page's stream opens
   * has its first state read after a few seconds instead of pushed.
   */
  push?(key: string, value: string, max: number, ttlMs: number): Promise<void>
  /** The list at `key`, oldest first (empty when none). */
  list?(key: string): Promise<string[]>
  /** Sends `message` to every subscriber of `channel`, in every instance sharing the store. */
  publish(channel: string, message: string): Promise<void>
  /**
   * Calls `listener.message` with every message published on `channel` from now on, and
   * `listener.missed` when messages may have been lost (the connection came back); resolves once
   * listening, with a function that stops.
   */
  subscribe(channel: string, listener: StoreListener): Promise<() => Promise<void>>
  /**
   * Optional: runs `operations` in order in one round trip, as one atomic step (no other client's
   * operation between them), answering each as its method would (one skipped by its
   * `if`/`unless`: undefined). Without it, the proxy calls the methods one after another, and a job
   * read's answer may show an earlier status for a moment after an end landed meanwhile.
   */
  batch?(operations: readonly StoreOperation[]): Promise<unknown[]>
  /**
   * Optional: ends what the store opened itself (its subscribing connection, its retries), so a
   * process can exit; the client it was given stays the application's to close. `proxy.close()` calls it.
   */
  close?(): Promise<void>
}

/** One of a store's operations, as `batch` takes it. */
export type StoreOperation = (
  | { op: 'increment'; key: string; delta: number; ttlMs: number }
  | { op: 'claim'; key: string; ttlMs: number }
  | { op: 'release'; key: string }
  | { op: 'get'; key: string }
  | { op: 'set'; key: string; value: string; ttlMs: number }
  | { op: 'hold'; key: string; value: string; ttlMs: number }
  | { op: 'lease'; key: string; owner: string; ttlMs: number }
  | { op: 'push'; key: string; value: string; max: number; ttlMs: number }
  | { op: 'list'; key: string }
  | { op: 'publish'; channel: string; message: string }
) & {
  /** Runs only when the operation at this index (of the same batch) answered true or a text: a claim made, a key found. */
  if?: number
  /** Runs only when the operation at this index answered neither. */
  unless?: number
}

/** What each operation answers, by its `op`. */
interface Answers {
  increment: number
  claim: boolean
  release: undefined
  get: string | undefined
  set: undefined
  hold: string
  lease: boolean
  push: undefined
  list: string[]
  publish: undefined
}
/** A batch's answers, in order; a conditional operation's may be undefined (skipped). */
export type BatchAnswers<T extends readonly StoreOperation[]> = {
  [I in keyof T]: T[I] extends { op: infer K extends keyof Answers } ? (T[I] extends { if: number } | { unless: number } ? Answers[K] | undefined : Answers[K]) : never
}

/**
 * The hash tag a key or channel is placed by, as Redis Cluster reads it: the text between its first
 * `{` and the first `}` after that, when not empty; otherwise the whole key.
 */
export function hashTagOf(key: string): string {
  const open = key.indexOf('{')
  const close = open < 0 ? -1 : key.indexOf('}', open + 1)
  return close > open + 1 ? key.slice(open + 1, close) : key
}

/** What a store operation is placed by: its key's tag, or a publish's channel's. */
export const tagOfOperation = (operation: StoreOperation): string => hashTagOf(operation.op === 'publish' ? operation.channel : operation.key)

/** Whether an operation is skipped, given the answers of those before it in its batch. */
export function skipped(operation: StoreOperation, answers: readonly unknown[]): boolean {
  const held = (index: number) => answers[index] === true || typeof answers[index] === 'string'
  return (operation.if !== undefined && !held(operation.if)) || (operation.unless !== undefined && held(operation.unless))
}

type Methods = Omit<ProxyStore, 'subscribe' | 'batch'>
/** Runs one operation with `methods`, which may answer at once (memoryStore's own) or with a promise. */
export function runOperation(methods: { [K in keyof Methods]: (...args: Parameters<NonNullable<Methods[K]>>) => unknown }, operation: StoreOperation): unknown {
  switch (operation.op) {
    case 'increment':
      return methods.increment(operation.key, operation.delta, operation.ttlMs)
    case 'claim':
      return methods.claim(operation.key, operation.ttlMs)
    case 'release':
      return methods.release(operation.key)
    case 'get':
      return methods.get(operation.key)
    case 'set':
      return methods.set(operation.key, operation.value, operation.ttlMs)
    case 'hold':
      return methods.hold(operation.key, operation.value, operation.ttlMs)
    case 'lease':
      return methods.lease(operation.key, operation.owner, operation.ttlMs)
    case 'push':
      return methods.push?.(operation.key, operation.value, operation.max, operation.ttlMs)
    case 'list':
      return methods.list ? methods.list(operation.key) : []
    case 'publish':
      return methods.publish(operation.channel, operation.message)
  }
}

/**
 * Runs `operations` in order, each by `run`; when `run` answers at once (memoryStore), all in one
 * turn of the event loop, so no other request's operation comes between them.
 */
export async function inOrder(operations: readonly StoreOperation[], run: (operation: StoreOperation) => unknown): Promise<unknown[]> {
  const answers: unknown[] = []
  for (const operation of operations) {
    const answer = skipped(operation, answers) ? undefined : run(operation)
    answers.push(answer instanceof Promise ? await answer : answer)
  }
  return answers
}

/** Runs `operations` with the store's `batch` (one round trip), or, with a store that has none, one by one in order. */
export async function together<const T extends readonly StoreOperation[]>(store: ProxyStore, operations: T): Promise<BatchAnswers<T>> {
  if (operations.length === 0) return [] as unknown as BatchAnswers<T>
  const answers = store.batch ? await store.batch(operations) : await inOrder(operations, (operation) => runOperation(store, operation))
  return answers as unknown as BatchAnswers<T>
}

/**
 * Runs `operations` as one batch per hash tag, the batches at once (one round trip in time), each
 * atomic on its own; answers in the order given. A condition (`if`/`unless`) names an operation of
 * its own tag. For work on several people's, jobs' or files' keys that needs no atomic step across them.
 */
export async function togetherByTag(store: ProxyStore, operations: readonly StoreOperation[]): Promise<unknown[]> {
  const groups = new Map<string, number[]>()
  operations.forEach((operation, index) => {
    const tag = tagOfOperation(operation)
    const group = groups.get(tag)
    if (group) group.push(index)
    else groups.set(tag, [index])
  })
  const answers: unknown[] = new Array(operations.length)
  await Promise.all(
    [...groups.values()].map(async (indexes) => {
      const within = (index: number | undefined) => {
        if (index === undefined) return undefined
        const at = indexes.indexOf(index)
        if (at < 0) throw new TypeError('A batch condition names an operation of another hash tag.')
        return at
      }
      const batch = indexes.map((index) => {
        const operation = operations[index]!
        const { if: ifAt, unless, ...rest } = operation
        return { ...rest, ...(ifAt === undefined ? {} : { if: within(ifAt) }), ...(unless === undefined ? {} : { unless: within(unless) }) } as StoreOperation
      })
      const got = await together(store, batch)
      indexes.forEach((index, at) => (answers[index] = got[at]))
    }),
  )
  return answers
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
    push: store.push && guard(store.push.bind(store)),
    list: store.list && guard(store.list.bind(store)),
    publish: guard(store.publish.bind(store)),
    // A subscription that lands after its caller gave up is nobody's: left, every message would be heard once more.
    subscribe: guard(store.subscribe.bind(store), (stop) => stop()),
    // Only where the store has one: a batch is then one atomic step, which a job's status relies on (jobWrite).
    batch: store.batch && guard(store.batch.bind(store)),
    close: async () => store.close?.(),
  }
}
