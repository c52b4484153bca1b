// The proxy as a Cloudflare Worker, as a partner deploys it: settings from `env`, the user from a
// header standing in for a session. Bundled by the workerd test and run there through Miniflare.
import { createToolsProxy, type ToolsProxy } from '../../src/server/index.js'
import { TOOLS } from '../../src/tools/index.js'

interface Env {
  TOOLS_BASE_URL: string
  TOOLS_API_KEY: string
  TOOLS_PROXY_SECRET: string
  MAX_UPLOAD_BYTES: string
}

let proxy: ToolsProxy | undefined

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    proxy ??= createToolsProxy({
      baseUrl: env.TOOLS_BASE_URL,
      apiKey: env.TOOLS_API_KEY,
      secret: env.TOOLS_PROXY_SECRET,
      basePath: '/api/tools',
      maxUploadBytes: Number(env.MAX_UPLOAD_BYTES),
      rate: { requests: 10_000, perMs: 1000 },
      authorize: (request) => {
        const user = request.headers.get('x-user')
        return user ? { user, tools: TOOLS.map((tool) => tool.id) } : null
      },
    })
    return proxy.handle(request)
  },
}
