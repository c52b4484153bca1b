// The proxy, made once per server process and shared by the routes under /api/tools.
import { createMockService, MOCK_KEYS } from '@cabinet/tools-react/mock'
import { createToolsProxy, type ToolsProxy } from '@cabinet/tools-react/server'
import { currentUser } from './session'

let proxy: ToolsProxy | undefined

/**
 * Made on the first request, so `next build` needs no secrets. With `TOOLS_BASE_URL` unset, the
 * proxy talks to the kit's simulated service in process, which sends it signed webhooks: the page
 * shows live updates with no key and no service.
 */
export function getProxy(): ToolsProxy {
  if (proxy) return proxy
  const simulated = !process.env.TOOLS_BASE_URL
  const webhookSecret = simulated ? demoWebhookSecret() : process.env.TOOLS_WEBHOOK_SECRET
  const service = simulated
    ? createMockService({
        jobDuration: 8000,
        // The simulated service's webhooks go straight to the proxy, as the service's would over HTTP.
        webhooks: { url: 'http://localhost/api/tools/webhooks', secret: webhookSecret!, send: (request) => getProxy().handle(request) },
      })
    : undefined
  return (proxy = createToolsProxy({
    baseUrl: service?.baseUrl ?? required('TOOLS_BASE_URL'),
    apiKey: service ? MOCK_KEYS.demo : required('TOOLS_API_KEY'),
    fetch: service?.fetch,
    secret: process.env.TOOLS_PROXY_SECRET ?? (simulated ? crypto.randomUUID() + crypto.randomUUID() : required('TOOLS_PROXY_SECRET')),
    basePath: '/api/tools',
    // Deny by default: only signed-in users, and only the tools their plan includes.
    authorize: async (request) => {
      const user = await currentUser(request)
      return user ? { user: user.id, tools: ['valuation/rent', 'valuation/report', 'pdf/create'] } : null
    },
    limits: { calls: 100, windowMs: 24 * 60 * 60 * 1000 },
    // The service's webhooks, subscribed to https://<your site>/api/tools/webhooks with this secret:
    // job updates are pushed to the pages at once, and nobody polls the service.
    webhooks: webhookSecret ? { secret: webhookSecret } : undefined,
    // A serverless function is cut after its maximum duration: end each event stream before, and the page resumes it.
    streamMaxMs: 55_000,
    // Several instances? Share the counters and the job watchers: redisStore(await createClient({ url }).connect()).
  }))
}

function required(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`Set ${name} for the tools proxy.`)
  return value
}

/** A fresh `whsec_` secret for the simulated service and the proxy to share. */
function demoWebhookSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`
}
