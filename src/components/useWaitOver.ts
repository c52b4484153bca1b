import type { Interpretation } from '../react/index.js'
import { useTimeLeft } from './clock.js'
import { capResetOf } from './remedy.js'

/**
 * Whether a failed run's wait has ended: the proxy's per-person cap that refused it has reset.
 * It turns true at that moment, with no reload, so the form's own "Run" comes back.
 */
export function useWaitOver(error: unknown, interpret: Interpretation): boolean {
  const resetAt = capResetOf(error, interpret)
  const left = useTimeLeft(resetAt)
  return resetAt !== undefined && left === 0
}
