/**
 * The error codes `@cabinet/tools-react/server` answers its own refusals with, in the service's
 * error shape (`{ error: { code, message } }`): the browser tells them from the service's own
 * 401, 403 and 402 (read with `interpret.errorCode(error.body)`).
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
} as const

/** Which proxy refusal: `unauthorized` | `toolNotAllowed` | `userLimit` | `uploadTooLarge`. */
export type ProxyRefusal = keyof typeof PROXY_ERROR_CODES

/** The proxy refusal an error code stands for, if any. */
export function proxyRefusalOf(code: string | undefined): ProxyRefusal | undefined {
  return (Object.keys(PROXY_ERROR_CODES) as ProxyRefusal[]).find((name) => PROXY_ERROR_CODES[name] === code)
}
