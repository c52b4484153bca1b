// app/api/tools/[...path]/route.ts: the whole server side. The browser calls /api/tools/…; the
// proxy adds the service key (never sent to the page) and serves calls, job reads, files, the
// pages' event stream and the service's webhooks.
import { createRouteHandlers, createToolsProxy } from '@cabinet/tools-react/server'
import { currentUser } from '../../../../lib/session'

export const { GET, POST } = createRouteHandlers(async () => {
  // With no service configured, the simulated service runs in process (msw installed), sending
  // the proxy its webhooks: live updates with no key. Made on the first request: `next build` needs no secrets.
  const simulated = process.env.TOOLS_BASE_URL ? undefined : await simulatedService()
  const webhookSecret = simulated?.webhookSecret ?? process.env.TOOLS_WEBHOOK_SECRET
  return createToolsProxy({
    baseUrl: simulated?.baseUrl ?? setting('TOOLS_BASE_URL'),
    apiKey: simulated?.apiKey ?? setting('TOOLS_API_KEY'),
    fetch: simulated?.fetch,
    secret: simulated?.secret ?? setting('TOOLS_PROXY_SECRET'), // 32+ random characters: openssl rand -base64 32
    basePath: '/api/tools',
    // Deny by default: only signed-in users, and only the tools their plan includes.
    authorize: async (request) => {
      const user = await currentUser(request)
      return user ? { user: user.id, tools: ['valuation/rent', 'valuation/report', 'pdf/create'] } : null
    },
    limits: { calls: 100, windowMs: 24 * 60 * 60 * 1000 }, // per user
    // The service's webhooks, subscribed to https://<your site>/api/tools/webhooks with this secret;
    // without them, the proxy reads each watched job itself, once for every page and instance.
    webhooks: webhookSecret ? { secret: webhookSecret } : undefined,
    // End each event stream before the function's maxDuration (below); the page resumes it.
    streamMaxMs: 55_000,
    // Several instances? Share counters and job watchers: store: redisStore(await createClient({ url }).connect()).
  })
})

// Next reads these from this file as it builds: literals here, not imports.
export const runtime = 'nodejs' // the event stream is a long response
export const dynamic = 'force-dynamic' // never cached or prerendered
export const maxDuration = 60 // longer than streamMaxMs

function setting(name: string): string {
  const value = process.env[name]
  if (!value) throw new Error(`Set ${name} for the tools proxy.`)
  return value
}

/** The simulated service, signing its webhooks to this route with a fresh secret. */
async function simulatedService() {
  const { createMockService, MOCK_KEYS } = await import('@cabinet/tools-react/mock')
  const webhookSecret = `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`
  const service = createMockService({
    jobDurationMs: 8000,
    webhooks: { url: 'http://localhost/api/tools/webhooks', secret: webhookSecret, send: (request) => POST(request) },
  })
  return { baseUrl: service.baseUrl, apiKey: MOCK_KEYS.demo, fetch: service.fetch, secret: crypto.randomUUID() + crypto.randomUUID(), webhookSecret }
}
