import { defaultInterpretation } from '../tools/index.js'
import type { Scrubber } from './scrub.js'

/** Every string in a JSON value, keys included, at any depth: walked with a stack, never recursion. */
export function stringsIn(value: unknown): string[] {
  const found: string[] = []
  const stack = [value]
  while (stack.length > 0) {
    const item = stack.pop()
    if (typeof item === 'string') found.push(item)
    else if (item && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) stack.push(key, child)
    }
  }
  return found
}

/**
 * The service's file paths (under `service`, e.g. `/artifacts/a.pdf`) that these strings name;
 * 'unknown' when one names the service in any other way (inside longer text, escaped, spelled
 * otherwise): the service may read it as any of its files.
 */
export function artifactPaths(strings: Iterable<string>, service: string, scrub: Scrubber): Set<string> | 'unknown' {
  const base = `${service}/artifacts/`
  const paths = new Set<string>()
  for (const text of strings) {
    const links = defaultInterpretation.artifacts(text, base)
    if (links.length === 0 && scrub.names(text)) return 'unknown'
    for (const link of links) paths.add(link.slice(service.length))
  }
  return paths
}

/** What an answer's strings become: a job id's handle, or a file link's signed proxy link. */
export interface LinkRewrite {
  jobId?: string
  handle?: string
  /** The service's file path a string names, if it names one. */
  pathOf(text: string): string | undefined
  /** The proxy links for these paths; a path left out becomes null. */
  sign(paths: string[]): Promise<Map<string, string>>
  /** What names the service otherwise: taken out (a key naming it, with its value). */
  scrub: Scrubber
}

/** How deep an answer may nest: far past any service's answer, short of what a browser's JSON.parse takes. */
const MAX_DEPTH = 1000

/** Too many links, or nesting too deep to write out again. */
export class AnswerTooLarge extends Error {}

/**
 * Every string value of a parsed answer (`root.value`), at any depth, with the object that holds
 * it and its key; a key that names the service is removed, with its value.
 */
function* stringSlots(root: { value: unknown }, scrub: Scrubber): Generator<[Record<string, unknown>, string, string]> {
  const stack: [Record<string, unknown>, string, number][] = [[root as Record<string, unknown>, 'value', 0]]
  while (stack.length > 0) {
    const [holder, key, depth] = stack.pop()!
    const value = holder[key]
    if (typeof value === 'string') yield [holder, key, value]
    else if (value && typeof value === 'object') {
      // The same limit on every runtime (how deep JSON.stringify goes differs between Node versions).
      if (depth >= MAX_DEPTH) throw new AnswerTooLarge(`nested deeper than ${MAX_DEPTH}`)
      for (const child of Object.keys(value)) {
        if (scrub.names(child)) delete (value as Record<string, unknown>)[child]
        else stack.push([value as Record<string, unknown>, child, depth + 1])
      }
    }
  }
}

/** The service's file paths a parsed answer links to, as `rewriteAnswer` finds them (none when it would refuse the answer). */
export function linkedPaths(body: unknown, rewrite: Omit<LinkRewrite, 'sign'>, maxLinks: number): string[] {
  const paths = new Set<string>()
  try {
    for (const [, , value] of stringSlots({ value: body }, rewrite.scrub)) {
      const path = rewrite.handle && value === rewrite.jobId ? undefined : rewrite.pathOf(value)
      if (path !== undefined) paths.add(path)
      if (paths.size > maxLinks) return []
    }
  } catch {
    return []
  }
  return [...paths]
}

/**
 * Rewrites a parsed answer in place, at any depth: the job id becomes the user's handle and file
 * links become signed proxy links (at most `maxLinks` distinct files); a service address not
 * signed becomes null, and one inside longer text, or spelled otherwise, is taken out: it would
 * only show the browser file ids to guess from. Returns the JSON text.
 */
export async function rewriteAnswer(body: unknown, rewrite: LinkRewrite, maxLinks: number): Promise<string> {
  const links: { holder: Record<string, unknown>; key: string; path: string }[] = []
  const paths = new Set<string>()
  const root = { value: body }
  for (const [holder, key, value] of stringSlots(root, rewrite.scrub)) {
    if (rewrite.handle && value === rewrite.jobId) holder[key] = rewrite.handle
    else {
      const path = rewrite.pathOf(value)
      if (path === undefined) {
        // Not one of its file links as such, yet naming the service: what names it goes.
        const scrubbed = rewrite.scrub.text(value)
        if (scrubbed !== value) holder[key] = scrubbed
        continue
      }
      links.push({ holder, key, path })
      paths.add(path)
      if (paths.size > maxLinks) throw new AnswerTooLarge(`more than ${maxLinks} files in one answer`)
    }
  }
  const signed = await rewrite.sign([...paths])
  for (const { holder, key, path } of links) {
    holder[key] = signed.get(path) ?? null
  }
  try {
    return JSON.stringify(root.value)
  } catch (error) {
    throw error instanceof RangeError ? new AnswerTooLarge('nested too deeply to pass on') : error
  }
}
