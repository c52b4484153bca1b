/**
 * A fresh identifier: `prefix_` and 16 hex digits. Hex keeps ids from ever spelling a word a
 * client reads error bodies for (such as "scope").
 */
export function newId(prefix: 'req' | 'job' | 'art' | 'msg'): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8))
  return `${prefix}_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`
}

/** A JSON answer carrying its request id in the `X-Request-Id` header. */
export function jsonResponse(requestId: string, status: number, body: Record<string, unknown>, headers?: Record<string, string>) {
  return Response.json(body, { status, headers: { 'X-Request-Id': requestId, ...headers } })
}

/** The service's error shape: `{ error: { code, message, ...details }, requestId }`. */
export function errorResponse(
  requestId: string,
  status: number,
  code: string,
  message: string,
  options: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
) {
  return jsonResponse(requestId, status, { error: { code, message, ...options.details }, requestId }, options.headers)
}
