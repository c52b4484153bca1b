import type { ToolsStateSql } from './types.js'

type Row = { num: number; text: string | null; items: string | null }

/**
 * One object's entries in its SQLite storage, one row a key: a counter (`num`), a text or a list
 * (`items`, JSON), and when it expires. Every method answers at once (the SQL API is synchronous),
 * so a batch runs whole before the object takes another request. An expired row is treated as
 * absent from the moment it expires; the object's alarm deletes it later (`sweep`).
 */
export function entryTable(sql: ToolsStateSql) {
  sql.exec('CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, num REAL NOT NULL DEFAULT 0, text TEXT, items TEXT, expires_at INTEGER NOT NULL)')
  sql.exec('CREATE INDEX IF NOT EXISTS entries_by_expiry ON entries (expires_at)')
  const live = (key: string) => sql.exec('SELECT num, text, items FROM entries WHERE key = ? AND expires_at > ?', key, Date.now()).toArray()[0] as Row | undefined
  const put = (key: string, ttlMs: number, { num = 0, text = null, items = null }: Partial<Row>) => {
    sql.exec('INSERT OR REPLACE INTO entries (key, num, text, items, expires_at) VALUES (?, ?, ?, ?, ?)', key, num, text, items, Date.now() + ttlMs)
  }
  return {
    increment(key: string, delta: number, ttlMs: number) {
      const entry = live(key)
      if (!entry) {
        if (delta <= 0) return 0
        put(key, ttlMs, { num: delta })
        return delta
      }
      sql.exec('UPDATE entries SET num = num + ? WHERE key = ?', delta, key)
      return entry.num + delta
    },
    claim(key: string, ttlMs: number) {
      if (live(key)) return false
      put(key, ttlMs, { num: 1 })
      return true
    },
    release(key: string) {
      sql.exec('DELETE FROM entries WHERE key = ?', key)
    },
    get: (key: string) => live(key)?.text ?? undefined,
    set(key: string, text: string, ttlMs: number) {
      put(key, ttlMs, { text })
    },
    hold(key: string, text: string, ttlMs: number) {
      const held = live(key)?.text
      if (typeof held === 'string' && held !== text) return held
      put(key, ttlMs, { text })
      return text
    },
    lease(key: string, owner: string, ttlMs: number) {
      const held = live(key)?.text
      if (typeof held === 'string' && held !== owner) return false
      put(key, ttlMs, { text: owner })
      return true
    },
    push(key: string, value: string, max: number, ttlMs: number) {
      const items = [...(JSON.parse(live(key)?.items ?? '[]') as string[]), value].slice(-max)
      put(key, ttlMs, { items: JSON.stringify(items) })
    },
    list: (key: string) => JSON.parse(live(key)?.items ?? '[]') as string[],
    /** When the next entry expires, if any. */
    nextExpiry(): number | undefined {
      const at = sql.exec('SELECT MIN(expires_at) AS at FROM entries').toArray()[0]?.at
      return typeof at === 'number' ? at : undefined
    },
    /** Deletes every expired entry. */
    sweep() {
      sql.exec('DELETE FROM entries WHERE expires_at <= ?', Date.now())
    },
  }
}
