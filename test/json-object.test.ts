// @vitest-environment node
// Where a JSON field's text stops parsing, as the person is told it: found from the text itself,
// so every browser says the same line and column.
import { describe, expect, it } from 'vitest'
import { readJsonObject } from '../src/components/jsonObject.js'
import { syntaxErrorAt, syntaxErrorOffset } from '../src/components/jsonSyntax.js'

const where = (text: string) => {
  const reading = readJsonObject(text)
  if (reading.kind !== 'syntax') return reading.kind
  const at = syntaxErrorAt(text)
  return `${at.line}:${at.column}`
}

describe('readJsonObject', () => {
  it('reads an object, and blank text as an empty one', () => {
    expect(readJsonObject(' {"a": [1, {"b": null}], "c": "\\u00e9\\n"} ')).toEqual({
      kind: 'object',
      value: { a: [1, { b: null }], c: 'é\n' },
    })
    expect(readJsonObject('  \n')).toEqual({ kind: 'object', value: {} })
  })

  it('JSON of another shape is not an object', () => {
    for (const text of ['[1]', '"text"', '12', 'null', 'true']) expect(where(text)).toBe('not-an-object')
  })

  it.each([
    ['{"a": warm}', '1:7'], // a bare word
    ['{"a": 1,}', '1:9'], // a trailing comma: the closing brace
    ['{"a": 1', '1:8'], // cut short: the end of the text
    ['{\n  "a": 1\n  "b": 2\n}', '3:3'], // a missing comma: the next key
    ['{\r\n"a": 01}', '2:7'], // a leading zero: the digit after it
    ['{"a": "two\nlines"}', '1:11'], // a raw line break in a string
    ['{"a": "\\x"}', '1:8'], // an unknown escape
    ['{"😀": 1 2}', '1:9'], // columns count characters, not UTF-16 units
    ["{'a': 1}", '1:2'], // single quotes
    ['{"a": 1} {}', '1:10'], // text after the object
    ['{"a": 1.}', '1:8'], // a number cut short: the dot
  ])('%j does not parse at %s', (text, position) => {
    expect(where(text)).toBe(position)
  })

  it('agrees with JSON.parse on where valid JSON ends', () => {
    for (const text of ['{"a": -0.5e+3, "b": [true, false, null, "\\"\\\\\\/\\b\\f\\r\\t"]}', '[]', '{}', '[ 1 , [ ] ]']) {
      expect(() => JSON.parse(text)).not.toThrow()
      expect(syntaxErrorOffset(text)).toBe(text.length)
    }
  })
})
