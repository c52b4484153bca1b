/** `value` as a record of fields, when it is an object. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined
}

/** The first non-empty string under one of `keys`, in the body or its `error` object. */
export function pickString(body: unknown, keys: readonly string[]): string | undefined {
  const record = asRecord(body)
  for (const source of [record, asRecord(record?.error)]) {
    for (const key of keys) {
      const value = source?.[key]
      if (typeof value === 'string' && value !== '') return value
    }
  }
  return undefined
}
