import { hashText } from '../tools/internal.js'

const ids = new WeakMap<object, number>()
let nextId = 0

/** A stable id for a given client, compared by identity. */
export function clientIdentity(value: object): string {
  let id = ids.get(value)
  if (id === undefined) ids.set(value, (id = ++nextId))
  return `#${id}`
}

/**
 * Stands for "this key at this base URL" in query keys and the journal, so one key's jobs and
 * files are never served to another while the key itself stays out of caches and storage.
 * Made from the key's value (a key function is called first), never from a function's identity;
 * its hash (FNV-1a) tells keys apart and is useless for recovering one.
 */
export function fingerprint(baseUrl: string, key: string | undefined): string {
  return `${hashText(baseUrl)}.${key ? hashText(key) : 'none'}`
}
