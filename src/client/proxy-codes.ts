/**
 * Every error code `@cabinet/tools-react/server` answers with, in the service's error shape
 * (`{ error: { code, message } }`), in one table: the browser tells the proxy's own refusals from
 * the service's 401, 403 and 402 (read with `interpret.errorCode(error.body)`).
 */
export const PROXY_ERROR_CODES = {
  /** 401: the partner's `authorize` recognised no user (signed out). */
  unauthorized: 'proxy_unauthorized',
  /** 403: the tool is not among the user's allowed tools. */
  toolNotAllowed: 'proxy_tool_not_allowed',
  /** 402: the user's own spend cap (`limits`) is reached; the partner's wallet is not the issue. */
  userLimit: 'proxy_user_limit',
  /** 413: the upload is larger than the proxy's `maxUploadBytes`. */
  uploadTooLarge: 'proxy_upload_too_large',
  /** 403: a POST from a page of another site (`Sec-Fetch-Site`, `Origin` not allowed). */
  crossSite: 'cross_site',
  /** 429: this user's own request rate (`rate`); `Retry-After` says when to go on. */
  rateLimited: 'proxy_rate_limited',
  /** 400: the input is not what the tool takes; nothing was sent to the service. */
  invalidInput: 'proxy_invalid_input',
  /** 404: no such route, job or file for this user (or a file link that expired). */
  notFound: 'not_found',
  jobNotFound: 'job_not_found',
  artifactNotFound: 'artifact_not_found',
  /** 405: a known route with another method; `Allow` lists the right one. */
  methodNotAllowed: 'method_not_allowed',
  /** 408: a call's JSON body did not arrive within `timeoutMs`. */
  requestTimeout: 'proxy_request_timeout',
  /** 499: the page went away before the answer. */
  clientClosed: 'client_closed_request',
  /** 502: the service refused the proxy's key (the partner must check `apiKey`). */
  serviceRefusedKey: 'proxy_service_refused_key',
  /** 502: the service could not be reached. */
  serviceUnreachable: 'proxy_service_unreachable',
  /** 502: the service answered with a redirect the proxy does not follow. */
  upstreamRedirect: 'upstream_redirect',
  /** 502: the service's answer is larger than `maxAnswerBytes`, or too deeply nested to pass on. */
  answerTooLarge: 'answer_too_large',
  /** 503: the proxy's store (Redis) failed or was slow; nothing was sent to the service. */
  storeUnavailable: 'store_unavailable',
  /** 504: the service did not answer (or the upload went silent) within `timeoutMs`. */
  upstreamTimeout: 'upstream_timeout',
  /** 401: a webhook without a valid Standard Webhooks signature, or one older than five minutes; nothing changed. */
  webhookRefused: 'webhook_refused',
  /** 429: this user already has as many open event streams on this instance as it allows. */
  tooManyStreams: 'proxy_too_many_streams',
  /** 500: the partner's `authorize` answered something other than `{ user, tools }` or null: a setup to fix, told to `onError`. */
  authorizeInvalid: 'proxy_authorize_invalid',
  /** 500: anything else. */
  failed: 'proxy_failed',
} as const

export type ProxyErrorCode = keyof typeof PROXY_ERROR_CODES

/** The refusals a person is shown a notice of their own for (`messages.proxy`); the rest read as the kinds they answer with. */
const REFUSALS = ['unauthorized', 'toolNotAllowed', 'userLimit', 'uploadTooLarge', 'crossSite'] as const

/** Which proxy refusal: `unauthorized` | `toolNotAllowed` | `userLimit` | `uploadTooLarge` | `crossSite`. */
export type ProxyRefusal = (typeof REFUSALS)[number]

/** The proxy refusal an error code stands for, if any. */
export function proxyRefusalOf(code: string | undefined): ProxyRefusal | undefined {
  return REFUSALS.find((name) => PROXY_ERROR_CODES[name] === code)
}
