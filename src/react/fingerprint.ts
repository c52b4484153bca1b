const ids = new WeakMap<object, number>()
let nextId = 0

/** A stable id for a given client, compared by identity. */
export function clientIdentity(value: object): string {
  let id = ids.get(value)
  if (id === undefined) ids.set(value, (id = ++nextId))
  return `#${id}`
}

/** FNV-1a: enough to tell keys apart in a cache, useless for recovering one. */
function hash(text: string): string {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return (h >>> 0).toString(36)
}

/**
 * Stands for "this key at this base URL" in query keys and the journal, so one key's jobs and
 * files are never served to another while the key itself stays out of caches and storage.
 * Made from the key's value (a key function is called first), never from a function's identity.
 */
export function fingerprint(baseUrl: string, key: string | undefined): string {
  return `${hash(baseUrl)}.${key ? hash(key) : 'none'}`
}
