// A proxy (`@cabinet/tools-react/server`, a Fetch handler) running in the page, in front of a
// story's simulated service: the page talks to the proxy only, through the preview's MSW worker.
import { http } from 'msw'
import type { ReactNode } from 'react'
import { ToolsProvider } from '../../src/components/index.js'
import { ru } from '../../src/entries/locales/ru.js'
import { MOCK_KEYS, type MockService, type MockServiceOptions } from '../../src/mock/index.js'
import { createToolsProxy, type ToolsProxy, type ToolsProxyOptions } from '../../src/server/index.js'
import { TOOLS } from '../../src/tools/index.js'
import { createStoryService } from './service.js'

/** The signed-in person every story behind a proxy is. */
export const STORY_USER = 'storybook'

export interface ProxyDeployment {
  service: MockService
  /** The proxy's address, the page's `baseUrl`. */
  baseUrl: string
  register: () => () => void
}

export interface ProxyDeploymentOptions {
  service?: MockServiceOptions
  /** Beside the signed-in person with every tool, allowed origins and a quiet `onError`. */
  proxy?: Partial<ToolsProxyOptions>
  /** The service sends its webhooks, signed with this secret, to the proxy. */
  webhookSecret?: string
  /** Told the path of each request the page sends the proxy. */
  onRequest?: (path: string) => void
}

export function proxyDeployment(options: ProxyDeploymentOptions = {}): ProxyDeployment {
  let hooks = ''
  const { webhookSecret } = options
  const { service, register } = createStoryService(
    {
      ...options.service,
      ...(webhookSecret && {
        webhooks: { url: 'https://proxy.invalid/webhooks', secret: webhookSecret, send: (request) => proxy.handle(new Request(hooks, request)) },
      }),
    },
    (serviceUrl) => [
      http.all(`${serviceUrl.replace(/\/v1$/, '/api/tools')}/*`, ({ request }) => {
        options.onRequest?.(new URL(request.url).pathname)
        return proxy.handle(request)
      }),
    ],
  )
  const baseUrl = service.baseUrl.replace(/\/v1$/, '/api/tools')
  hooks = `${baseUrl}/webhooks`
  const proxy: ToolsProxy = createToolsProxy({
    baseUrl: service.baseUrl,
    apiKey: MOCK_KEYS.demo,
    fetch: service.fetch,
    basePath: new URL(baseUrl).pathname,
    secret: 'a-storybook-secret-of-at-least-thirty-two-characters',
    authorize: () => ({ user: STORY_USER, tools: TOOLS.map((tool) => tool.id) }),
    allowedOrigins: [location.origin],
    webhooks: webhookSecret ? { secret: webhookSecret } : undefined,
    onError: () => {},
    ...options.proxy,
  })
  return { service, baseUrl, register }
}

/** A story's parts behind a proxy: a fresh deployment per render (`context.loaded.deployment`), answering while the story is shown. */
export function behindProxy(deploy: () => ProxyDeployment) {
  return {
    parameters: { tools: { simulatedOnly: true } },
    loaders: [() => ({ deployment: deploy() })],
    beforeEach: (context: { loaded: Record<string, unknown> }) => deploymentOf(context).register(),
  }
}

export const deploymentOf = <D extends ProxyDeployment = ProxyDeployment>(context: { loaded: Record<string, unknown> }) => context.loaded.deployment as D

/**
 * The page's provider, on the story's proxy (`proxyPage(context)`), as the signed-in person, in the
 * story's locale. Its props are plain values, not the story's context: the catalogue's interaction
 * log walks the props of the elements a play checks, and a context (its deployment, its service)
 * took it minutes and hung the page.
 */
export function ProxyProvider({ baseUrl, locale, children }: { baseUrl: string; locale: unknown; children: ReactNode }) {
  return (
    <ToolsProvider baseUrl={baseUrl} user={STORY_USER} messages={locale === 'ru' ? ru : undefined}>
      {children}
    </ToolsProvider>
  )
}

/** `<ProxyProvider>`'s props for a story: its proxy's address and its locale. */
export const proxyPage = (context: { loaded: Record<string, unknown>; globals: Record<string, unknown> }) => ({
  baseUrl: deploymentOf(context).baseUrl,
  locale: context.globals.locale,
})
