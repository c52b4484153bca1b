import { isToolsError, proxyRefusalOf, type Interpretation, type ToolsErrorKind } from '../react/index.js'

/**
 * What can get a failed run through: the same call again (`retry`: after a wait, a top-up, a
 * reconnect), other input from the person (`edit`), or nothing the page offers (`none`: a
 * sign-in, a key or an account without the tool, a spent cap, another site's page).
 */
export type Remedy = 'retry' | 'edit' | 'none'

const RETRY: ReadonlySet<ToolsErrorKind> = new Set(['billing', 'rate-limit', 'server', 'network', 'job-failed', 'aborted', 'timeout', 'unexpected'])
const NONE: ReadonlySet<ToolsErrorKind> = new Set(['unauthorized', 'scope'])

export function remedyOf(error: unknown, interpret: Interpretation): Remedy {
  if (!isToolsError(error)) return 'retry'
  const refusal = proxyRefusalOf(interpret.errorCode(error.body))
  if (refusal) return refusal === 'uploadTooLarge' ? 'edit' : 'none'
  return RETRY.has(error.kind) ? 'retry' : NONE.has(error.kind) ? 'none' : 'edit'
}

/** When the proxy's per-person cap that refused a run starts counting again (ms since the epoch), if it says. */
export function capResetOf(error: unknown, interpret: Interpretation): number | undefined {
  if (!isToolsError(error) || proxyRefusalOf(interpret.errorCode(error.body)) !== 'userLimit') return undefined
  const resetAt = (error.body as { error?: { resetAt?: unknown } } | undefined)?.error?.resetAt
  const time = typeof resetAt === 'string' ? Date.parse(resetAt) : NaN
  return Number.isNaN(time) ? undefined : time
}

/**
 * A form's own button in a run's phase: "Run", "Run again" after a success, none while a failure's
 * notice offers the one way on ("Try again") or when nothing the page offers can help. `waitOver`:
 * the failure's wait has ended (the cap's window has reset), so the form runs again.
 */
export function submitAction(
  phase: string,
  error: unknown,
  interpret: Interpretation,
  waitOver = false,
): 'submit' | 'runAgain' | undefined {
  if (phase === 'succeeded') return 'runAgain'
  if (phase === 'failed' && error && !waitOver && remedyOf(error, interpret) !== 'edit') return undefined
  return 'submit'
}
