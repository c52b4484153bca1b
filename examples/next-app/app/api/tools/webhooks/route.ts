// The service's webhooks: verified by their signature (no session), then pushed to the pages.
import { getProxy } from '../../../../lib/proxy'

export const runtime = 'nodejs'
export const dynamic = 'force-dynamic'

export function POST(request: Request) {
  return getProxy().handle(request)
}
