// The server proxy: the service key stays on the server; the browser talks to `basePath`.
export { createToolsProxy } from './proxy.js'
export type { ProxyLimits, ProxyRate, ProxyUser, ToolsProxy, ToolsProxyOptions } from './proxy.js'
export { memoryStore, redisStore } from './store.js'
export type { ProxyStore, RedisEvalClient, RedisStoreOptions, RedisSubscriberClient, StoreListener } from './store.js'
export type { WebhookJob, WebhookOptions } from './webhooks.js'
export { PROXY_ERROR_CODES } from '../tools/index.js'
export { createRouteHandlers, type ToolsRouteHandlers } from './next.js'
