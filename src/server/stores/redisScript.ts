// redisStore's one Lua script: what each operation does on the Redis server, and what it is sent and answers.
import type { StoreOperation } from './store.js'

/**
 * Every operation, and a batch of them, in one script (one round trip, atomic on the Redis server:
 * two instances never interleave inside it). ARGV holds four slots per operation: its name, its
 * condition (n > 0: only if operation n answered true or a text; n < 0: only if operation -n did
 * not), two arguments (a push's second is its max and TTL, space between). KEYS holds each
 * operation's key in order, a publish's channel among them (so a Redis Cluster sends the script to
 * the node serving them all: one hash tag per batch). `spublish` publishes on a cluster's shard
 * (sharded pub/sub, Redis 7). A skipped operation answers false (nil); a made claim or lease 1, a
 * refused one 0.
 */
export const BATCH = `
local ops = {}
ops.increment = function(key, delta, ttl)
  local exists = redis.call('EXISTS', key)
  delta = tonumber(delta)
  if exists == 0 and delta <= 0 then return 0, false end
  local value = redis.call('INCRBY', key, delta)
  if exists == 0 then redis.call('PEXPIRE', key, ttl) end
  return value, false
end
ops.claim = function(key, ttl)
  if redis.call('SET', key, '1', 'NX', 'PX', ttl) then return 1, true end
  return 0, false
end
ops.release = function(key) redis.call('DEL', key) return false, false end
ops.get = function(key)
  local value = redis.call('GET', key)
  return value, value ~= false
end
ops.set = function(key, value, ttl) redis.call('SET', key, value, 'PX', ttl) return false, false end
ops.hold = function(key, value, ttl)
  local held = redis.call('GET', key)
  if held and held ~= value then return held, true end
  redis.call('SET', key, value, 'PX', ttl)
  return value, true
end
ops.lease = function(key, owner, ttl)
  local held = redis.call('GET', key)
  if held and held ~= owner then return 0, false end
  redis.call('SET', key, owner, 'PX', ttl)
  return 1, true
end
ops.push = function(key, value, limits)
  local max, ttl = string.match(limits, '^(%d+) (%d+)$')
  redis.call('RPUSH', key, value)
  redis.call('LTRIM', key, -tonumber(max), -1)
  redis.call('PEXPIRE', key, ttl)
  return false, false
end
ops.list = function(key) return redis.call('LRANGE', key, 0, -1), true end
local answers, held, k = {}, {}, 1
for i = 1, #ARGV, 4 do
  local n, condition = (i + 3) / 4, tonumber(ARGV[i + 1])
  local run = condition == 0 or (condition > 0 and held[condition]) or (condition < 0 and not held[-condition])
  local key = KEYS[k]
  k = k + 1
  if ARGV[i] == 'publish' or ARGV[i] == 'spublish' then
    answers[n], held[n] = false, false
    if run then redis.call(string.upper(ARGV[i]), key, ARGV[i + 3]) end
  elseif run then
    answers[n], held[n] = ops[ARGV[i]](key, ARGV[i + 2], ARGV[i + 3])
  else
    answers[n], held[n] = false, false
  end
end
return answers`

const ttl = (ms: number) => String(Math.max(1, Math.ceil(ms)))

/**
 * An operation's four slots in ARGV (see BATCH), given its condition in Lua's counting; `sharded`:
 * a publish goes on a cluster's shard.
 */
export function argumentsOf(operation: StoreOperation, condition: number, sharded: boolean): string[] {
  const head = [operation.op === 'publish' && sharded ? 'spublish' : operation.op, String(condition)]
  switch (operation.op) {
    case 'increment':
      return [...head, String(Math.trunc(operation.delta)), ttl(operation.ttlMs)]
    case 'claim':
      return [...head, ttl(operation.ttlMs), '']
    case 'release':
    case 'get':
    case 'list':
      return [...head, '', '']
    case 'push':
      return [...head, operation.value, `${Math.max(1, Math.trunc(operation.max))} ${ttl(operation.ttlMs)}`]
    case 'set':
    case 'hold':
      return [...head, operation.value, ttl(operation.ttlMs)]
    case 'lease':
      return [...head, operation.owner, ttl(operation.ttlMs)]
    case 'publish':
      return [...head, '', operation.message]
  }
}

/** An answer of the script as the operation's method answers. */
export function answerOf(operation: StoreOperation, answer: unknown): unknown {
  if (answer === null || answer === undefined) return undefined // skipped, or a key not found
  if (operation.op === 'increment') return Number(answer)
  if (operation.op === 'claim' || operation.op === 'lease') return Number(answer) === 1
  if (operation.op === 'get' || operation.op === 'hold') return String(answer)
  if (operation.op === 'list') return (answer as unknown[]).map(String)
  return undefined
}

/** A script's SHA-1 in hex, as Redis names the scripts it holds. */
export async function sha1Of(script: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(script)))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
