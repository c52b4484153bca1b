import { defaultInterpretation, PROXY_ERROR_CODES, type ProxyErrorCode, type Tool } from '../tools/index.js'
import { fileNameOf, SAFE_HEADERS, withProxyCode } from './answers.js'
import type { ProxyContext } from './context.js'
import { keys, legacyKeys } from './keys.js'
import { togetherByTag, type StoreOperation } from './stores/store.js'
import { linkedPaths, rewriteAnswer } from './links.js'
import type { Caller } from './guards.js'
import type { JobSnapshot } from './jobs/jobSnapshot.js'
import type { Answer } from './service.js'

/** What the browser is answered: a status, the headers that cross, and a body that is JSON or plain text. */
export interface Reply {
  status: number
  headers: Record<string, string>
  body: string
  json: boolean
  /** The job a creation's answer names (the service's id), when it names one. */
  createdJobId?: string
  /** The proxy's own error code, when the reply is its own error (the service refused the key). */
  code?: (typeof PROXY_ERROR_CODES)[ProxyErrorCode]
}

/** Whose answer it is: the user, the tool, the job as the page names it, and what the user's request carried. */
export interface AnswerView {
  user: Caller
  tool?: Tool
  jobId?: string
  handle?: string
  /** The service's file paths the request carried (never signed); 'unknown' when the request could not be read. */
  written: Set<string> | 'unknown'
  /** The answer creates a job: its id becomes a new handle. */
  created?: boolean
  /** Files held already, with the store's write of the answer (`linkHolds`): their first user, by path. */
  held?: ReadonlyMap<string, string | undefined>
}

/** Distinct files one answer may link to. */
const MAX_LINKS = 1000
/** What is remembered of a file (its first user). */
export const MEMORY_TTL_MS = 7 * 24 * 60 * 60 * 1000

export function replyResponse(reply: Reply): Response {
  const response = new Response(reply.body, {
    status: reply.status,
    headers: { ...reply.headers, 'Content-Type': reply.json ? 'application/json' : 'text/plain; charset=utf-8' },
  })
  return reply.code ? withProxyCode(response, reply.code) : response
}

/**
 * The service's answer for one user: JSON with its job id replaced by the user's handle and the
 * file links the service minted by the user's signed links; anything else as plain text.
 */
export async function rewriteFor(context: ProxyContext, upstream: Answer, view: AnswerView): Promise<Reply> {
  const { handles, service } = context
  if (upstream.status === 401) {
    service.report('the service refused the API key (401): check the proxy’s apiKey')
    const error = { code: PROXY_ERROR_CODES.serviceRefusedKey, message: 'The tools service refused this site’s credentials.' }
    return { status: 502, headers: { ...SAFE_HEADERS }, body: JSON.stringify({ error }), json: true, code: error.code }
  }
  const { headers, status } = upstream
  let body: unknown
  try {
    body = JSON.parse(upstream.body)
  } catch {
    // Plain text (an error's, say) may name the service too: what names it goes.
    return { status, headers, body: service.scrub.text(upstream.body) ?? '', json: false }
  }
  const { user, tool } = view
  const ok = status >= 200 && status < 300
  const created = view.created && ok && tool?.mode === 'deferred' ? (body as { jobId?: unknown })?.jobId : undefined
  const createdJobId = typeof created === 'string' ? created : undefined
  const jobId = view.jobId ?? createdJobId
  // A poll's handle is the one the browser sent: no need to sign it again.
  const handle = view.handle ?? (jobId && tool ? await handles.job(user.user, tool.id, jobId) : undefined)
  const json = await rewriteAnswer(body, { jobId, handle, pathOf: pathOf(context), sign: (paths) => signLinks(context, view, paths), scrub: service.scrub }, MAX_LINKS)
  // A job's answer names the stream its updates come on: the page listens there instead of polling.
  const live: Record<string, string> = handle ? { 'X-Tools-Events': `${context.settings.basePath}/events` } : {}
  return { status, headers: { ...headers, ...live }, body: json, json: true, createdJobId }
}

/** The service's file path a string of its answer names, if it names one. */
const pathOf =
  ({ service }: ProxyContext) =>
  (value: string) =>
    defaultInterpretation.artifacts(value, `${service.base}/artifacts/`)[0]?.slice(service.base.length)

/** Whether an answer's links may be signed for its user: only the files a tool makes are the caller's (text read back, an upload's or an echo, is not). */
const signable = (context: ProxyContext, tool: Tool | undefined): tool is Tool => tool !== undefined && context.settings.fileTools.has(tool.id)

/** Links expire on the minute, so a poll of a job whose files did not change reuses their signatures: its key among links signed lately. */
function linkSigning(context: ProxyContext, user: Caller, tool: Tool) {
  const expiresAt = Math.ceil((Date.now() + context.settings.artifactTtlMs) / 60_000) * 60_000
  // One JSON array, then the path's JSON string: the two never run into each other.
  const prefix = JSON.stringify([user.user, tool.id, expiresAt])
  return { expiresAt, linkKey: (path: string) => prefix + JSON.stringify(path) }
}

/** The store's hold of a file for its first user. */
const holdFor = (path: string, user: Caller): StoreOperation => ({ op: 'hold', key: keys.owner(path), value: user.storeId, ttlMs: MEMORY_TTL_MS })
/** How much longer than a job's record of its request a renewed hold lasts: the two are written side by side, a moment apart. */
const RECORD_MARGIN_MS = 60_000

/**
 * The holds of the files a job's request carried (`written`, recorded for MEMORY_TTL_MS beside
 * this), renewed for whoever holds them to outlast that record: a file's first user is the last
 * fact about it to go. A file no one holds stays unheld.
 */
export async function outlastRecord(context: ProxyContext, written: ReadonlySet<string> | 'unknown'): Promise<void> {
  if (written === 'unknown' || written.size === 0) return
  const paths = [...written]
  const holders = await togetherByTag(context.store, paths.map((path): StoreOperation => ({ op: 'get', key: keys.owner(path) })))
  const renewals = paths.flatMap((path, index): StoreOperation[] => {
    const holder = holders[index]
    return typeof holder === 'string' ? [{ op: 'hold', key: keys.owner(path), value: holder, ttlMs: MEMORY_TTL_MS + RECORD_MARGIN_MS }] : []
  })
  if (renewals.length > 0) await togetherByTag(context.store, renewals)
}

/** A file's hold as versions before hashed tags kept it (keys.ts `legacyKeys`), read beside its hold (another tag, the same trip). */
const legacyHoldOf = (path: string): StoreOperation => ({ op: 'get', key: legacyKeys.owner(path) })

/**
 * Each file's first user: the one its hold under the earlier tags names, while that lives, else the
 * one its hold names now (`fresh`: undefined, none). A hold made anew beside an earlier one of
 * another user is set to that user's, so the rightful owner keeps the file past the earlier hold's end.
 */
function ownersOf(context: ProxyContext, paths: readonly string[], fresh: readonly unknown[], legacy: readonly unknown[]): Map<string, string | undefined> {
  const owners = new Map<string, string | undefined>()
  const fixes: StoreOperation[] = []
  paths.forEach((path, index) => {
    const [now, before] = [fresh[index] as string | undefined, legacy[index] as string | undefined]
    owners.set(path, before ?? now)
    if (before !== undefined && now !== before) fixes.push({ op: 'set', key: keys.owner(path), value: before, ttlMs: MEMORY_TTL_MS })
  })
  // Not awaited: a fix lost is made again by the next hold, which reads the earlier hold again.
  if (fixes.length > 0) togetherByTag(context.store, fixes).catch(() => {})
  return owners
}

/**
 * A job answer's new file links held for its user with the store's write of the answer, when a read
 * reaches the service: the answer needs no trip of its own for them. `held` reads the holds' answers (`AnswerView.held`).
 */
export function linkHolds(context: ProxyContext, user: Caller, tool: Tool, jobId: string, handle: string) {
  let paths: string[] = []
  return {
    operations(snapshot: JobSnapshot, writtenText: string | undefined): StoreOperation[] {
      let written: AnswerView['written']
      let body: unknown
      try {
        written = writtenOf(writtenText)
        body = JSON.parse(snapshot.body)
      } catch {
        return [] // not JSON: nothing held here; the answer's rewrite meets it as before
      }
      // Not known what the request carried: nothing is held anew (signLinks signs only files held for this user already).
      if (!signable(context, tool) || written === 'unknown') return []
      const { linkKey } = linkSigning(context, user, tool)
      paths = linkedPaths(body, { jobId, handle, pathOf: pathOf(context), scrub: context.service.scrub }, MAX_LINKS).filter((path) => !written.has(path) && !context.state.signedLinks.has(linkKey(path)))
      return [...paths.map((path) => holdFor(path, user)), ...paths.map(legacyHoldOf)]
    },
    held: (answers: unknown[] | undefined): ReadonlyMap<string, string | undefined> =>
      answers ? ownersOf(context, paths, answers.slice(0, paths.length), answers.slice(paths.length)) : new Map(),
  }
}

/** Signed proxy links for the files of an answer that may be this user's. */
async function signLinks(context: ProxyContext, { user, tool, written, held }: AnswerView, paths: string[]): Promise<Map<string, string>> {
  const signed = new Map<string, string>()
  if (!signable(context, tool)) return signed
  const { signedLinks } = context.state
  const { expiresAt, linkKey } = linkSigning(context, user, tool)
  // Unknown (an unread body, or the store lost the job's record): any path may be the user's own
  // input, so only a file held for this user already is signed, and none is held anew.
  const unknown = written === 'unknown'
  const unwritten = unknown ? paths : paths.filter((path) => !written.has(path))
  // The second wall: a file goes to the first user it was issued to, and no other; each use renews
  // the hold. A link signed lately was held for this user then (a file's first user stays), so was
  // one held with the write: the rest, in one trip.
  const unheld = unwritten.filter((path) => !signedLinks.has(linkKey(path)) && !held?.has(path))
  // Unknown: a hold renewed only where one is found (on another's, a hold changes nothing).
  const holding = unknown ? unheld.flatMap((path, index): StoreOperation[] => [{ op: 'get', key: keys.owner(path) }, { ...holdFor(path, user), if: 2 * index }]) : unheld.map((path) => holdFor(path, user))
  // Each file's hold on its own tag (keys.ts), all in one round trip.
  const answers = await togetherByTag(context.store, [...holding, ...unheld.map(legacyHoldOf)])
  const fresh = answers.slice(0, holding.length)
  const holders = ownersOf(context, unheld, unknown ? fresh.filter((_answer, index) => index % 2 === 1) : fresh, answers.slice(holding.length))
  const refused = new Set(unheld.filter((path) => holders.get(path) !== user.storeId))
  for (const [path, holder] of held ?? []) if (holder !== user.storeId) refused.add(path)
  await Promise.all(
    unwritten.map(async (path) => {
      if (refused.has(path)) return
      const key = linkKey(path)
      let link = signedLinks.get(key)
      if (!link) {
        const token = await context.handles.artifact(user.user, tool.id, path, expiresAt)
        link = `${context.settings.basePath}/artifacts/${token}/${encodeURIComponent(fileNameOf(path))}`
        signedLinks.remember(key, link)
      }
      signed.set(path, link)
    }),
  )
  return signed
}

/**
 * A job's status as this user reads it: their handle, their links, none of what their request
 * carried (`writtenText`: the store's text for it, when the caller read it already; null: none).
 */
export async function jobReply(
  context: ProxyContext,
  snapshot: Answer,
  user: Caller,
  tool: Tool,
  jobId: string,
  handle: string,
  writtenText?: string | null,
  held?: ReadonlyMap<string, string | undefined>,
): Promise<Reply> {
  let kept = writtenText === undefined ? await context.store.get(keys.written(jobId)) : writtenText
  // None: perhaps written by a version before hashed tags, while such a record may live (7 days after the upgrade).
  if (!kept && signable(context, tool)) kept = await context.store.get(legacyKeys.written(jobId))
  return rewriteFor(context, snapshot, { user, tool, jobId, handle, written: writtenOf(kept), held })
}

/**
 * What a job's request carried, from the store's text for it. A file tool's job always has one
 * (callRoute): none means it expired or was evicted, which never reads as "nothing": unknown.
 */
function writtenOf(text: string | null | undefined): Set<string> | 'unknown' {
  const written = text ? (JSON.parse(text) as string[] | 'unknown') : 'unknown'
  return written === 'unknown' ? written : new Set(written)
}
