import type { Accept } from 'react-dropzone'

// Apart from the drop's other rules (fileAccept.ts): only the drop's own chunk names the types.

/**
 * What to call the accepted types in a hint: their extensions without the dot, upper-cased
 * (`PNG`, `PDF`), or the media type itself where no extension is listed.
 */
export function acceptedTypeNames(accept: Accept): string[] {
  const names = Object.entries(accept).flatMap(([type, extensions]) => {
    const list = typeof extensions === 'string' ? [extensions] : [...extensions]
    return list.length > 0 ? list.map((extension) => extension.replace(/^\./, '').toUpperCase()) : [type]
  })
  return [...new Set(names)]
}
