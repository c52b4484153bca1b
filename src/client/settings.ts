import { checkBaseUrl, resolveBaseUrl } from './baseUrl.js'
import type { ToolsClientOptions } from './client.js'
import { defaultInterpretation, type Interpretation } from './interpret.js'
import { retryPolicy, type RetryPolicy } from './retry.js'

export const DEFAULT_POLL_INTERVAL = 3000
/** How long a job is polled before `timeout`, unless the call says otherwise. */
export const DEFAULT_POLL_TIMEOUT = 3_600_000

/** A client's options with every default resolved once: what its parts read, never change. */
export interface ClientSettings {
  readonly options: ToolsClientOptions
  readonly interpret: Interpretation
  readonly policy: RetryPolicy
  readonly pollInterval: number
  readonly pollTimeoutMs: number
  /** The base URL as requests use it (resolved when called, so importing stays DOM-free). */
  base(): string
  /** The key's value for the next request (a key function is called each time). */
  resolveKey(): Promise<string | undefined>
}

export function clientSettings(options: ToolsClientOptions): ClientSettings {
  checkBaseUrl(options.baseUrl)
  return {
    options,
    interpret: { ...defaultInterpretation, ...options.interpret },
    policy: retryPolicy(options.retry),
    pollInterval: options.pollIntervalMs ?? options.pollInterval ?? DEFAULT_POLL_INTERVAL,
    pollTimeoutMs: options.pollTimeoutMs ?? options.pollTimeout ?? DEFAULT_POLL_TIMEOUT,
    base: () => resolveBaseUrl(options.baseUrl),
    resolveKey: async () => (typeof options.apiKey === 'function' ? await options.apiKey() : options.apiKey),
  }
}
