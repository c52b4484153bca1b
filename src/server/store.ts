/**
 * Where the proxy keeps what several instances must share: the users' spend counters and the
 * Idempotency-Keys already counted. Everything else is signed into handles and needs no store.
 * Every operation is atomic on its key, so instances sharing one store count exactly.
 */
export interface ProxyStore {
  /**
   * Adds `delta` to the counter at `key` and returns its new value. A counter this call creates
   * expires `ttlMs` later; a negative `delta` on a missing (expired) counter creates nothing and
   * returns 0.
   */
  increment(key: string, delta: number, ttlMs: number): Promise<number>
  /** Sets `key` for `ttlMs` unless it is set: true when this call set it. */
  claim(key: string, ttlMs: number): Promise<boolean>
  /** Removes `key`. */
  release(key: string): Promise<void>
}

/** One process's store, in memory: the default, right for a single instance. */
export function memoryStore(): ProxyStore {
  const entries = new Map<string, { value: number; expiresAt: number }>()
  const live = (key: string) => {
    const entry = entries.get(key)
    if (entry && entry.expiresAt <= Date.now()) {
      entries.delete(key)
      return undefined
    }
    return entry
  }
  let writes = 0
  /** Drops expired entries now and then, so a long-lived process does not keep every user forever. */
  const sweep = () => {
    if (++writes % 1000 !== 0) return
    const now = Date.now()
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key)
  }
  return {
    async increment(key, delta, ttlMs) {
      sweep()
      const entry = live(key)
      if (!entry) {
        if (delta < 0) return 0
        entries.set(key, { value: delta, expiresAt: Date.now() + ttlMs })
        return delta
      }
      entry.value += delta
      return entry.value
    },
    async claim(key, ttlMs) {
      sweep()
      if (live(key)) return false
      entries.set(key, { value: 1, expiresAt: Date.now() + ttlMs })
      return true
    },
    async release(key) {
      entries.delete(key)
    },
  }
}

/**
 * What `redisStore` needs of a Redis client: `eval` as node-redis (`redis` 4 and later) has it.
 * With another client, pass an object whose `eval` calls that client's.
 */
export interface RedisEvalClient {
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>
}

// Each script runs atomically on the Redis server: two instances never interleave inside one.
const INCREMENT = `
local exists = redis.call('EXISTS', KEYS[1])
local delta = tonumber(ARGV[1])
if exists == 0 and delta < 0 then return 0 end
local value = redis.call('INCRBY', KEYS[1], delta)
if exists == 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return value`
const CLAIM = `return redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) and 1 or 0`
const RELEASE = `return redis.call('DEL', KEYS[1])`

/**
 * A store on Redis, shared by every instance of the proxy: pass a connected client you create
 * (`createClient({ url }).connect()` from the `redis` package). Keys start with `prefix`.
 */
export function redisStore(client: RedisEvalClient, { prefix = 'tools-proxy:' }: { prefix?: string } = {}): ProxyStore {
  const run = async (script: string, key: string, args: (string | number)[]) =>
    Number(await client.eval(script, { keys: [prefix + key], arguments: args.map(String) }))
  return {
    increment: (key, delta, ttlMs) => run(INCREMENT, key, [Math.trunc(delta), Math.max(1, Math.ceil(ttlMs))]),
    claim: async (key, ttlMs) => (await run(CLAIM, key, [Math.max(1, Math.ceil(ttlMs))])) === 1,
    release: async (key) => {
      await run(RELEASE, key, [])
    },
  }
}
