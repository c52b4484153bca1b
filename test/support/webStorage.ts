import type { WebStorage } from '../../src/tools/index.js'

/** A Web Storage over a Map, as a file-backed one would be in a script. */
export function webStorage(): WebStorage & { items: Map<string, string> } {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
    key: (index) => [...items.keys()][index] ?? null,
    get length() {
      return items.size
    },
  }
}

/** What a storage holds, each item read back as JSON. */
export const stored = (storage: ReturnType<typeof webStorage>) => [...storage.items.values()].map((item) => JSON.parse(item))
