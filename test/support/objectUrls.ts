import { afterEach, beforeEach, vi } from 'vitest'

/**
 * Stands in for the browser's object-URL store for one test file: jsdom may lack it, and Node's
 * own refuses jsdom's blobs. Each URL ends in `#<blob type>`, so a test can tell what it shows.
 */
export function stubObjectUrls() {
  const created: string[] = []
  beforeEach(() => {
    created.length = 0
    URL.createObjectURL ??= () => ''
    URL.revokeObjectURL ??= () => {}
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(`blob:test/${created.length}#${(blob as Blob).type}`)
      return created.at(-1)!
    })
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  })
  afterEach(() => vi.restoreAllMocks())
  return created
}
