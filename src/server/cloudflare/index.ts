export { durableObjectStore, type DurableObjectStoreOptions } from './store.js'
export { ToolsProxyState } from './state.js'
export type { ToolsStateContext, ToolsStateNamespace, ToolsStateResponse, ToolsStateSql, ToolsStateStub, WorkersWebSocket } from './types.js'
