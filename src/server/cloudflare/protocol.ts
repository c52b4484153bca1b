/**
 * How `durableObjectStore` and `ToolsProxyState` talk: one request per batch (`POST /batch`, the
 * operations as JSON, their answers as JSON, undefined as null) and one WebSocket per subscription
 * (`GET /subscribe?channel=…`, each published message one text frame).
 */
export const ORIGIN = 'https://tools-state'
export const BATCH_PATH = '/batch'
export const SUBSCRIBE_PATH = '/subscribe'

/** Answers as JSON carries them: undefined (a missing key, an operation answering nothing, one skipped) is null. */
export const toWire = (answers: readonly unknown[]): unknown[] => answers.map((answer) => (answer === undefined ? null : answer))
export const fromWire = (answers: readonly unknown[]): unknown[] => answers.map((answer) => (answer === null ? undefined : answer))
