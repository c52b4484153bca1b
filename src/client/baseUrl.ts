import { issue, validationError } from './errors.js'

/**
 * The service's base address as every request and fingerprint reads it: a relative one against
 * the page (so both spellings are one), without trailing slashes. Resolved when used, so importing
 * stays DOM-free. Throws a `validation` error for an address that is not one.
 */
export function resolveBaseUrl(baseUrl: string): string {
  const page = (globalThis as { location?: { href: string } }).location?.href
  try {
    return new URL(baseUrl, page).href.replace(/\/+$/, '')
  } catch {
    throw validationError([issue('baseUrl', 'invalid')])
  }
}

/**
 * Throws a developer's TypeError at once for a base URL that cannot be one: not a string, blank,
 * with spaces, or an unset setting printed into it (`undefined`, `null`), which would otherwise
 * send every request to `/undefined/…`. A proxy's path such as `/api/tools` is a base URL.
 */
export function checkBaseUrl(baseUrl: unknown): void {
  if (typeof baseUrl === 'string' && baseUrl && !/\s|^(undefined|null)(\/|$)/.test(baseUrl)) return
  const given = typeof baseUrl === 'string' ? JSON.stringify(baseUrl) : String(baseUrl)
  throw new TypeError(`baseUrl must be a URL or a path like /api/tools, not ${given}`)
}
