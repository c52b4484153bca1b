import type { ToolsClientOptions } from '../tools/index.js'

const ids = new WeakMap<object, number>()
let nextId = 0

/** A stable id for a function or client, compared by identity. */
function identity(value: object): string {
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
 * Stands for "this key at this base URL" in query keys, so one key's cached jobs are never
 * served to another while the key itself stays out of caches and devtools.
 */
export function fingerprint(baseUrl: string, apiKey: ToolsClientOptions['apiKey'] | object): string {
  const key = typeof apiKey === 'string' ? hash(apiKey) : apiKey ? identity(apiKey) : 'none'
  return `${hash(baseUrl)}.${key}`
}

export { identity as clientIdentity }
