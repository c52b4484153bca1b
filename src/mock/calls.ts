import type { Tool } from '../tools/index.js'
import { charge } from './billing.js'
import { errorResponse, jsonResponse, newId } from './http.js'
import type { ParsedCall } from './request.js'
import { TOOL_RESULTS } from './results.js'
import type { Caller, ServiceState } from './state.js'
import type { MockLogEntry } from './types.js'
import type { MockJob } from './jobs.js'

/** A tool call whose body has been read: from here on it is answered without awaiting anything. */
export interface ToolCall {
  tool: Tool
  caller: Caller
  parsed: ParsedCall
  idempotencyKey: string | undefined
  requestId: string
  /** The log entry of this request, where billing and replays are recorded. */
  entry: MockLogEntry
}

/**
 * Answers a tool call in the service's order: rate limit (429), idempotent replay, scope
 * (403), body (400), listing ownership (403), wallet (402), then the tool itself. It runs
 * synchronously, so two requests can never both pass the replay check and both be billed.
 */
export function answerCall(state: ServiceState, call: ToolCall): Response {
  const { tool, caller, parsed, idempotencyKey, requestId, entry } = call
  const retryAfter = state.rateLimiter.admit(caller.key, Date.now())
  if (retryAfter !== undefined) {
    return errorResponse(requestId, 429, 'rate_limited', 'Too many requests for this key. Retry later.', {
      headers: { 'Retry-After': String(retryAfter) },
    })
  }

  // Only job creation is replayed (spec part 4); a synchronous tool ignores the header.
  const replayKey = tool.mode === 'deferred' ? idempotencyKey : undefined
  const earlier = replayKey === undefined ? undefined : state.creation(caller.key, replayKey)
  if (earlier) {
    if (earlier.tool !== tool.id) {
      return errorResponse(requestId, 409, 'idempotency_key_reused', 'This Idempotency-Key was already used for another tool.')
    }
    entry.replay = true
    return jsonResponse(earlier.requestId, earlier.status, earlier.body, { 'Idempotent-Replayed': 'true' })
  }

  if (tool.scope && !caller.scopes.has(tool.scope)) {
    return errorResponse(requestId, 403, 'scope_missing', `This key lacks the scope ${tool.scope}.`, {
      details: { scope: tool.scope },
    })
  }

  if (!parsed.ok) return errorResponse(requestId, 400, parsed.code, parsed.message, { details: parsed.details })
  const { input } = parsed

  if ('listing' in tool && tool.listing) {
    const refusal = listingRefusal(caller, input)
    // Worded without "scope", so clients can tell it from a missing scope.
    if (refusal) return errorResponse(requestId, 403, 'listing_access_denied', refusal)
  }

  const source = charge(state.wallet(caller.account.id))
  if (!source) {
    return errorResponse(
      requestId,
      402,
      'insufficient_funds',
      'The subscription and bundle are used up and the balance cannot pay for this call.',
    )
  }
  entry.billed = source

  if (tool.mode === 'sync') {
    const result = TOOL_RESULTS[tool.id]({ input, artifact: (spec) => state.storeArtifact(spec, caller.key) })
    return jsonResponse(requestId, 200, { ...result, requestId })
  }

  const jobId = newId('job')
  const job: MockJob = {
    id: jobId,
    tool: tool.id,
    key: caller.key,
    account: caller.account.id,
    requestId,
    createdAt: state.jobClock.now(),
    input,
    outcome: caller.account.outcome ?? state.decideOutcome({ tool: tool.id, input, account: caller.account.id }),
    durationMs: state.jobDurationMs,
    intermediateStatus: state.intermediateStatus,
  }
  state.jobs.set(jobId, job)
  state.webhooks?.created(job)
  const body = { jobId, status: 'pending', requestId }
  if (replayKey !== undefined) state.rememberCreation(caller.key, replayKey, { tool: tool.id, status: 202, body, requestId })
  return jsonResponse(requestId, 202, body)
}

/** Why the caller may not use the listing or collection it named, or undefined when it may. */
function listingRefusal(caller: Caller, input: Record<string, unknown>): string | undefined {
  const { objectId, collectionId } = input
  if (typeof objectId === 'string' && !caller.account.objects?.includes(objectId)) {
    return `The listing ${objectId} does not belong to this account.`
  }
  if (typeof collectionId === 'string' && !caller.account.collections?.includes(collectionId)) {
    return `The collection ${collectionId} does not belong to this account.`
  }
  return undefined
}
