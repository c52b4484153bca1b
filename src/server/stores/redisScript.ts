// redisStore's one Lua script: what each operation does on the Redis server.

/**
 * Every operation, and a batch of them, in one script (one round trip, atomic on the Redis server:
 * two instances never interleave inside it). ARGV holds four slots per operation: its name, its
 * condition (n > 0: only if operation n answered true or a text; n < 0: only if operation -n did
 * not), two arguments (a push's second is its max and TTL, space between). KEYS holds each
 * operation's key in order (a publish has none). A skipped operation answers false (nil); a made
 * claim or lease 1, a refused one 0.
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
  if ARGV[i] == 'publish' then
    answers[n], held[n] = false, false
    if run then redis.call('PUBLISH', ARGV[i + 2], ARGV[i + 3]) end
  else
    local key = KEYS[k]
    k = k + 1
    if run then answers[n], held[n] = ops[ARGV[i]](key, ARGV[i + 2], ARGV[i + 3]) else answers[n], held[n] = false, false end
  end
end
return answers`

/** A script's SHA-1 in hex, as Redis names the scripts it holds. */
export async function sha1Of(script: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', new TextEncoder().encode(script)))
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')
}
