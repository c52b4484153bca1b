/**
 * What was thrown, as text, whatever it is: `String()` itself throws on an object with no
 * prototype or a `toString` that throws, and a report must never fail on what it reports.
 */
export function thrownText(error: unknown): string {
  try {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  } catch {
    try {
      return Object.prototype.toString.call(error)
    } catch {
      return 'something that cannot be printed'
    }
  }
}

/**
 * The one place the proxy calls a partner's hook (`onEvent`, `onError`): whatever it throws, or
 * rejects with later, goes to `failed` as text and never reaches a request or the process.
 */
export function callHook<A extends unknown[]>(hook: ((...args: A) => unknown) | undefined, args: A, failed: (text: string) => void): void {
  if (!hook) return
  const fail = (error: unknown) => {
    try {
      failed(thrownText(error))
    } catch {
      // The report of a failing hook failed too: nothing is left to tell.
    }
  }
  try {
    const result = hook(...args) as { then?: unknown } | null | undefined
    // Any thenable, not only a Promise: a rejection left unhandled would end the process.
    if (result != null && (typeof result === 'object' || typeof result === 'function') && typeof result.then === 'function') Promise.resolve(result).catch(fail)
  } catch (error) {
    fail(error)
  }
}
