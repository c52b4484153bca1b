// A Web Storage (getItem/setItem/removeItem/key/length) kept in one JSON file, for a script's
// journal. Every change is written to a temporary file and renamed over the journal: a process
// killed mid-write leaves the old journal or the new one, never half of one.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'

/** @param {string} path @returns {Storage} */
export function fileStorage(path) {
  /** @type {Record<string, string>} */
  const items = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : {}
  const save = () => {
    writeFileSync(`${path}.tmp`, JSON.stringify(items))
    renameSync(`${path}.tmp`, path)
  }
  return /** @type {Storage} */ ({
    getItem: (key) => items[key] ?? null,
    setItem(key, value) {
      items[key] = String(value)
      save()
    },
    removeItem(key) {
      delete items[key]
      save()
    },
    key: (index) => Object.keys(items)[index] ?? null,
    get length() {
      return Object.keys(items).length
    },
  })
}
