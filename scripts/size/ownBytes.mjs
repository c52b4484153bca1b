// A chunk's text without what its source map says came from a peer (React, TanStack Query, Next.js
// and what they depend on): the bytes the kit adds, as esbuild and Vite count them with peers external.
import { moduleName } from './entries.mjs'

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/** The fields of one source-map segment (VLQ, each relative to the previous segment's). */
function decodeSegment(segment) {
  const fields = []
  let value = 0
  let shift = 0
  for (const char of segment) {
    const digit = BASE64.indexOf(char)
    value += (digit & 31) << shift
    if (digit & 32) shift += 5
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1)
      value = shift = 0
    }
  }
  return fields
}

/** Each generated line's segments: [column, source index], unmapped text going with the source before it. */
function lineSegments(mappings) {
  let index = 0 // each segment's source is relative to the one before, from 0
  let source = -1 // none yet
  return mappings.split(';').map((line) => {
    let column = 0
    return (line ? line.split(',') : []).map((segment) => {
      const [dColumn, dSource] = decodeSegment(segment)
      column += dColumn
      if (dSource !== undefined) source = index += dSource
      return [column, source]
    })
  })
}

/**
 * The chunk's code without its peers' bytes, and the minified bytes of each module kept. `isPeer`
 * is asked of a package name. The source-map comment goes too: pages ship without one.
 */
export function ownBytes(code, map, isPeer) {
  const names = map.sources.map((source) => moduleName(source.replace(/^turbopack:\/\/\/\[project\]\//, '')))
  const kept = names.map((name) => !isPeer(name))
  const lines = code.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, '').split('\n')
  const bytes = new Map()
  let own = ''
  let source = -1
  const perLine = lineSegments(map.mappings)
  lines.forEach((line, index) => {
    const segments = perLine[index] ?? []
    const starts = [[0, source], ...segments]
    starts.forEach(([column, at], i) => {
      source = at
      const text = line.slice(column, starts[i + 1]?.[0] ?? line.length)
      if (source !== -1 && !kept[source]) return
      own += text
      const name = names[source] ?? '(glue)'
      bytes.set(name, (bytes.get(name) ?? 0) + text.length)
    })
    if (index < lines.length - 1) own += '\n'
  })
  return { own, inputs: [...bytes].map(([input, count]) => ({ input, bytes: count })) }
}
