// Loaded only when a JSON field's text does not parse: a page whose JSON is fine never loads it.
import type { TextPosition } from './jsonObject.js'

/**
 * Where `text` stops being JSON, found from the text itself: engines' messages differ between
 * browsers, and some give no position.
 */
export function syntaxErrorAt(text: string): TextPosition {
  return positionOf(text, syntaxErrorOffset(text))
}

/** The line and column of `offset` in `text`; `\n`, `\r\n` and a lone `\r` each end a line. */
export function positionOf(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset)
  const lines = before.split(/\r\n|\r|\n/)
  // Characters, not UTF-16 units: an emoji before the error is one column.
  return { line: lines.length, column: Array.from(lines.at(-1) ?? '').length + 1 }
}

/** Thrown at the first character JSON's grammar (RFC 8259) does not allow there. */
class Stop {
  constructor(readonly offset: number) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
// Any character but a quote, a backslash or a control character (JSON strings hold those escaped).
// eslint-disable-next-line no-control-regex
const STRING_PART = /[^"\\\u0000-\u001f]+|\\(?:["\\/bfnrt]|u[\dA-Fa-f]{4})/y
const SPACE = /[ \t\n\r]*/y

/**
 * The offset of the first character where `text` stops being JSON: the end of the text when it
 * stops too soon. A text that parses gives its length (not reached: callers parse first).
 */
export function syntaxErrorOffset(text: string): number {
  let at = 0
  const match = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at
    const found = pattern.exec(text)?.[0]
    if (found) at += found.length
    return found
  }
  const space = () => void match(SPACE)
  const expect = (char: string) => {
    if (text[at] !== char) throw new Stop(at)
    at++
  }
  const string = () => {
    expect('"')
    while (match(STRING_PART) !== undefined);
    expect('"')
  }
  // Each value reads up to its last character; a container reads its members between spaces.
  const members = (close: string, member: () => void) => {
    space()
    if (text[at] === close) return void at++
    for (;;) {
      member()
      space()
      if (text[at] !== ',') return expect(close)
      at++
      space()
    }
  }
  const value = (): void => {
    const char = text[at]
    if (char === '{') {
      at++
      return members('}', () => {
        string()
        space()
        expect(':')
        space()
        value()
      })
    }
    if (char === '[') {
      at++
      return members(']', value)
    }
    if (char === '"') return string()
    for (const word of ['true', 'false', 'null']) if (text.startsWith(word, at)) return void (at += word.length)
    // A number's end is checked by what follows it: `01` stops at the `1`, `1.` at the end.
    if (match(NUMBER) === undefined) throw new Stop(at)
  }
  try {
    space()
    value()
    space()
    if (at < text.length) throw new Stop(at)
    return at
  } catch (stop) {
    if (stop instanceof Stop) return Math.min(stop.offset, text.length)
    throw stop
  }
}
