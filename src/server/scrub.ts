// Service addresses the proxy does not sign never leave it, however they are spelled.

/** How many times escapes are undone: an address escaped twice over is still found. */
const DECODE_ROUNDS = 4

/**
 * A text as a URL parser or a browser might read it: percent and `\u` escapes undone, look-alike
 * dots and backslashes made plain, lower case. Only for matching: never sent.
 */
export function normalised(text: string): string {
  // Plain ASCII with nothing escaped, the usual case: only its case to fold.
  if (!/[%\\\u0080-\uffff]/.test(text)) return text.toLowerCase()
  let out = text.normalize('NFKC')
  for (let round = 0; round < DECODE_ROUNDS; round++) {
    const next = out
      .replace(/\\u([0-9a-fA-F]{4})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/%([0-9a-fA-F]{2})/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    if (next === out) break
    out = next
  }
  return out.replace(/\\/g, '/').replace(/[\u3002\uff0e\uff61]/g, '.').toLowerCase()
}

/** Runs of text an address could sit in: split at spaces, quotes and the marks around JSON or markup. */
const TOKEN = /[^\s"'<>()[\]{},;`|]+/g

export interface Scrubber {
  /** Whether a text names the service: its host, or its files' path, in any spelling. */
  names(text: string): boolean
  /** The text with every run that names the service taken out; null when it still names it after that. */
  text(text: string): string | null
}

/** What names the service at `base` (e.g. `https://tools.example/v1`): its host name, and its files' path under the base. */
export function createScrubber(base: string): Scrubber {
  const url = new URL(base)
  const marks = [url.hostname.toLowerCase(), `${url.pathname.replace(/\/+$/, '')}/artifacts`.toLowerCase()]
  const names = (text: string) => {
    const plain = normalised(text)
    return marks.some((mark) => plain.includes(mark))
  }
  return {
    names,
    text(text) {
      if (!names(text)) return text
      const scrubbed = text.replace(TOKEN, (run) => (names(run) ? '' : run))
      return names(scrubbed) ? null : scrubbed
    },
  }
}
