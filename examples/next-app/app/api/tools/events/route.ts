// The page's event stream (Server-Sent Events): every job it follows, pushed as it changes.
import { getProxy } from '../../../../lib/proxy'

// A stream is a long response: Node's runtime, never cached or prerendered.
export const runtime = 'nodejs'
export const dynamic = 'force-dynamic'
// Longer than the proxy's `streamMaxMs`, so the proxy ends each stream (and the page resumes it) first.
export const maxDuration = 60

export function GET(request: Request) {
  return getProxy().handle(request)
}
