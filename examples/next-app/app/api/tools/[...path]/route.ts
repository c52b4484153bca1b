// The proxy: the browser calls /api/tools/…, this adds the service key (never sent to the page).
import { createToolsProxy, type ToolsProxy } from '@cabinet/tools-react/server'
import { currentUser } from '../../../../lib/session'

let proxy: ToolsProxy | undefined

/** Made on the first request, so `next build` needs no secrets. */
function getProxy(): ToolsProxy {
  return (proxy ??= createToolsProxy({
    baseUrl: required('TOOLS_BASE_URL'),
    apiKey: required('TOOLS_API_KEY'),
    secret: required('TOOLS_PROXY_SECRET'),
    basePath: '/api/tools',
    // Deny by default: only signed-in users, and only the tools their plan includes.
    authorize: async (request) => {
      const user = await currentUser(request)
      return user ? { user: user.id, tools: ['valuation/rent', 'pdf/create'] } : null
    },
    limits: { calls: 100, windowMs: 24 * 60 * 60 * 1000 },
    // Several instances? Share the counters: redisStore(await createClient({ url }).connect()).
  }))
}

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`Set ${name} for the tools proxy.`)
  return value
}

export function GET(request: Request) {
  return getProxy().handle(request)
}

export function POST(request: Request) {
  return getProxy().handle(request)
}
