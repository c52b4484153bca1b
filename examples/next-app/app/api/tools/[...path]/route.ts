// The proxy: the browser calls /api/tools/…, this adds the service key (never sent to the page).
import { getProxy } from '../../../../lib/proxy'

export function GET(request: Request) {
  return getProxy().handle(request)
}

export function POST(request: Request) {
  return getProxy().handle(request)
}
