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
