import type { StoreOperation } from '../stores/store.js'

/**
 * How `durableObjectStore` and `ToolsProxyState` talk: one request per batch (`POST /batch`, the
 * operations as JSON, their answers as JSON, undefined as null) and one WebSocket per subscription
 * (`GET /subscribe?channel=…`, each published message one text frame).
 */
export const ORIGIN = 'https://tools-state'
export const BATCH_PATH = '/batch'
export const SUBSCRIBE_PATH = '/subscribe'

/**
 * The name of the object that holds `key` (or a channel): its hash tag, the text between the first
 * `{` and the `}` after it as Redis Cluster reads it, so that a person's keys, a job's and a
 * file's live together; a key without one is an object of its own.
 */
export function shardOf(key: string): string {
  const open = key.indexOf('{')
  const close = open < 0 ? -1 : key.indexOf('}', open + 1)
  return close > open + 1 ? key.slice(open + 1, close) : key
}

/** The object an operation goes to: its key's, or its channel's. */
export const shardOfOperation = (operation: StoreOperation): string => shardOf(operation.op === 'publish' ? operation.channel : operation.key)

/** Answers as JSON carries them: undefined (a missing key, an operation answering nothing, one skipped) is null. */
export const toWire = (answers: readonly unknown[]): unknown[] => answers.map((answer) => (answer === undefined ? null : answer))
export const fromWire = (answers: readonly unknown[]): unknown[] => answers.map((answer) => (answer === null ? undefined : answer))
