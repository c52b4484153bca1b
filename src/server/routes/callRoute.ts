import type { Tool } from '../../tools/index.js'
import { errorAnswer, SAFE_HEADERS } from '../answers.js'
import { refuse, tooLarge } from '../bodies.js'
import type { ProxyContext } from '../context.js'
import { formPaths, jsonBody, outgoingBody } from '../callBody.js'
import { formFieldReader } from '../formFields.js'
import { endedIn, type JobKey, type JobSnapshot } from '../jobs/jobStatus.js'
import { keys } from '../keys.js'
import { newJobNews, pageOf, RECENT_MS } from '../streams/jobNews.js'
import { AnswerTooLarge, artifactPaths } from '../links.js'
import { billable, firstJobOf, markOf, outcomeOfFailure, reserveWith, userLimitAnswer, type CallOutcome, type MarkedJob } from '../money.js'
import { rateCount, rateLimited, refusedCounted, type Caller } from '../guards.js'
import { MEMORY_TTL_MS, outlastRecord, replyResponse, rewriteFor } from '../rewrite.js'
import type { Answer } from '../service.js'
import { StoreUnavailable, together, type StoreOperation } from '../stores/store.js'
import { failureOf, isRedirect, upstreamTimer, UpstreamFailure } from '../upstream.js'

/** `POST {basePath}/<tool>`: a tool call, its body passed on (checked first when it is JSON), counted under the user's rate and cap in one trip (its guards: router). */
export async function callRoute(context: ProxyContext, request: Request, user: Caller, tool: Tool): Promise<Response> {
  const { service } = context
  const { maxUploadBytes, timeoutMs } = context.settings
  const contentType = request.headers.get('content-type') ?? ''
  const json = tool.body === 'json' && /^application\/json\b/i.test(contentType)
  const parsed = json ? await jsonBody(context, request, tool) : undefined
  if (parsed instanceof Response) return refusedCounted(context, request, user, parsed)
  const form = !json && /^multipart\/form-data\b/i.test(contentType) ? formFieldReader(contentType) : undefined
  const opaque = !parsed && !form && request.body !== null

  const clientKey = request.headers.get('idempotency-key')
  const idempotencyKey = clientKey ? await context.handles.idempotencyKey(user.user, tool.id, clientKey) : undefined
  const placed = await placeUnderCap(context, request, user, tool, idempotencyKey)
  if (placed instanceof Response) return placed
  const { giveBack, marked, repeat, repeatOf } = placed
  /** The call repeats a counted one and the service answered with that call's job: a replay, not billed. */
  let replayed = false
  let jobMarked = false

  const timer = upstreamTimer(timeoutMs, request.signal)
  let exceeded = false
  let sent = false
  let outcome: CallOutcome = 'lost'
  const headers = new Headers()
  if (contentType) headers.set('Content-Type', contentType)
  if (idempotencyKey) headers.set('Idempotency-Key', idempotencyKey)
  const bodySent = () => {
    sent = true
    timer.start()
  }
  try {
    const onExceeded = () => {
      exceeded = true
      timer.abort(new UpstreamFailure('too-large', 'the upload is too large'))
    }
    const body = outgoingBody(request, { parsed, form, maxBytes: maxUploadBytes, timer, onSent: bodySent, onExceeded })
    const upstream = await service.send(tool.path, { method: 'POST', headers, body, duplex: 'half', signal: timer.signal }, request)
    if (isRedirect(upstream)) {
      outcome = 'unsent' // a redirect is no answer: nothing was processed
      await upstream.body?.cancel()
      return errorAnswer(502, 'upstreamRedirect', 'The tools service answered with a redirect.')
    }
    outcome = { status: upstream.status }
    // What the user wrote into the request is never signed as a file of theirs; a body the
    // proxy could not read may hold anything, so then no link of the answer is signed.
    const written = parsed ? artifactPaths(parsed.strings, service.base, service.scrub) : form ? formPaths(form.fields(), service) : opaque ? 'unknown' : new Set<string>()
    const answer = await service.answerOf(upstream)
    const reply = await rewriteFor(context, answer, { user, tool, written, created: true })
    const jobId = reply.createdJobId
    if (jobId) {
      await recordCreation(context, { user, tool, jobId, answer, written, page: pageOf(request), marked })
      jobMarked = true
      replayed = repeat !== undefined && jobId === (repeatOf ?? (await firstJobOf(context.store, repeat, timeoutMs)))?.jobId
    }
    return replyResponse(reply)
  } catch (error) {
    if (error instanceof AnswerTooLarge || error instanceof StoreUnavailable) throw error
    if (exceeded) {
      outcome = 'unsent'
      return tooLarge(maxUploadBytes)
    }
    const failure = failureOf(error, timer)
    outcome = outcomeOfFailure(sent, error, failure)
    return service.failed(`POST ${tool.path}`, failure, request)
  } finally {
    timer.stop()
    context.telemetry.note(request, { billed: billable(outcome) })
    if (!billable(outcome) || replayed) await giveBack()
    // A mark its call could not fill would keep every repeat waiting for it.
    else if (marked && !jobMarked) await context.store.release(marked)
  }
}

/** A job's creation, as `recordCreation` keeps it: `marked`, the Idempotency-Key's mark this call holds. */
interface Creation {
  user: Caller
  tool: Tool
  jobId: string
  answer: Answer
  written: Set<string> | 'unknown'
  page: string | undefined
  marked: string | undefined
}

/**
 * A new job, recorded for what follows in one trip to the store: its own keys (what its request
 * carried, its first status, which remembers its tool for webhooks) and, beside them, its person's
 * (their key's mark, the news for their streams), one batch per tag (keys.ts). The person's carry
 * the job's first snapshot: a repeat that finds the mark, or a stream that hears the news, before
 * the job's keys land answers from it.
 */
async function recordCreation(context: ProxyContext, { user, tool, jobId, answer, written, page, marked }: Creation) {
  const { jobStatus, store } = context
  const also: StoreOperation[] = []
  // A file tool's job always: its record missing later reads as "anything may have been sent" (rewrite's writtenOf).
  if (context.settings.fileTools.has(tool.id) || written === 'unknown' || written.size > 0) {
    also.unshift({ op: 'set', key: keys.written(jobId), value: JSON.stringify(written === 'unknown' ? written : [...written]), ttlMs: MEMORY_TTL_MS })
  }
  // The creation starts the job's clock: a watcher paces its reads (or waits for webhooks) from it.
  // Kept as a read would answer it (200): with webhooks, reads are served from it until the first one.
  const key: JobKey = { toolPath: tool.path, jobId }
  const first: JobSnapshot = { ...answer, status: 200, readAt: 0, since: Date.now(), terminal: endedIn(answer.body) }
  const mark = marked ? [markOf(context.settings.limits!, marked, jobId, first)] : []
  const writes = await Promise.allSettled([
    jobStatus.put(key, first, 'new', also),
    together(store, [...mark, ...newJobNews(store, user, tool.id, jobId, page, first)]),
    outlastRecord(context, written),
  ])
  // Both settled before a failure is told: a mark given back then (callRoute) is not written after.
  const failed = writes.find((each) => each.status === 'rejected')
  if (failed) throw failed.reason
}

/** The call counted under the user's rate with its place under the cap, in one trip to the store; or the refusal to answer. */
async function placeUnderCap(context: ProxyContext, request: Request, user: Caller, tool: Tool, idempotencyKey: string | undefined) {
  const { limits, timeoutMs } = context.settings
  const rate = rateCount(context, user)
  const now = Date.now()
  const reserved = await reserveWith(context.store, limits, user.storeId, tool, idempotencyKey, now, [rate.operation])
  const { giveBack, answers, repeat, repeatOf } = reserved
  const wait = rate.wait(answers[0] as number)
  if (wait !== undefined) {
    await giveBack?.()
    return refuse(request, rateLimited(wait), timeoutMs)
  }
  if (!giveBack) {
    // Over the cap, a repeat is answered with the job its first call made, as the store keeps it: the service is not asked.
    const replay = repeat ? await replayOf(context, user, tool, repeat, repeatOf) : undefined
    return refuse(request, replay ?? userLimitAnswer(limits!, now), timeoutMs)
  }
  return { ...reserved, giveBack }
}

/** A repeat over the cap: the first call's job, as a creation's answer (202, replayed), when the store still keeps it. */
async function replayOf(context: ProxyContext, user: Caller, tool: Tool, mark: string, known: MarkedJob | undefined): Promise<Response | undefined> {
  const job = known ?? (await firstJobOf(context.store, mark, context.settings.timeoutMs))
  if (!job) return undefined
  const { jobId, first } = job
  // The job's own keys, written in the mark's trip, may not have landed yet: its first snapshot
  // answers meanwhile (only then: once the job's keys have lapsed, nothing is replayed).
  const snapshot = (await context.jobStatus.current({ toolPath: tool.path, jobId })) ?? (first && Date.now() - (first.since ?? 0) < RECENT_MS ? first : undefined)
  if (!snapshot) return undefined
  const answer = { status: 202, headers: { ...SAFE_HEADERS, 'idempotent-replayed': 'true' }, body: snapshot.body }
  return replyResponse(await rewriteFor(context, answer, { user, tool, jobId, written: 'unknown' }))
}
