import { resolveBaseUrl } from '../baseUrl.js'
import { hashText } from '../hash.js'

/** Separates the person from the key in a fingerprint: `<base>.<key>~<person>`. */
const PERSON = '~'

/**
 * Stands for "this key at this base URL, for this person" in query keys and the journal, so one
 * key's (or one person's) jobs and files are never served to another while the key and the
 * person's id stay out of caches and storage. Made from values only (a key function is called
 * first), never from an object's identity, so the same page after a reload gets the same
 * fingerprint. Its hashes (FNV-1a) tell values apart and are useless for recovering one.
 */
export function fingerprint(baseUrl: string, key: string | null | undefined, user?: string): string {
  // A key function not yet answered (null) has a fingerprint of its own, matching no journaled run.
  const base = `${hashText(resolvedOrAsIs(baseUrl))}.${key ? hashText(key) : key === null ? '?' : 'none'}`
  return user ? `${base}${PERSON}${personOf(user)}` : base
}

function resolvedOrAsIs(baseUrl: string): string {
  try {
    return resolveBaseUrl(baseUrl)
  } catch {
    return baseUrl // not a URL: the client refuses it before any request
  }
}

/** The hashed id of a person, as it ends their fingerprints. */
export const personOf = (user: string) => hashText(`user:${user}`)

/** Whether a fingerprint is one of this person's (any key), or, with no person, one of nobody's. */
export function belongsTo(print: string, user: string | undefined): boolean {
  const at = print.indexOf(PERSON)
  return user ? at >= 0 && print.slice(at + 1) === personOf(user) : at < 0
}
