// The server proxy: the service key stays on the server; the browser talks to `basePath`.
export { createToolsProxy } from './proxy.js'
export type { ProxyLimits, ProxyRate, ProxyUser, ToolsProxy, ToolsProxyOptions } from './proxy.js'
export { memoryStore } from './memoryStore.js'
export { redisStore } from './redisStore.js'
export type { ProxyStore, StoreListener } from './store.js'
export type { RedisEvalClient, RedisStoreOptions, RedisSubscriberClient } from './redisStore.js'
export type { WebhookJob, WebhookOptions } from './webhooks.js'
export { PROXY_ERROR_CODES } from '../tools/index.js'
