// A store reached over HTTP: the Worker answers `/store/…` with its own store (durableObjectStore
// in workerd), and `storeOverProbe` is a ProxyStore in Node whose every method is one of those
// requests. The store's client side thus runs in workerd, where partners run it, while the
// tests that drive it run in Node.
import type { ProxyStore, StoreOperation } from '../../src/server/stores/store.js'

const NONE = { none: true }
const toJson = (value: unknown) => JSON.stringify(value === undefined ? NONE : value)
const fromJson = (text: string): unknown => {
  const value = JSON.parse(text) as unknown
  return value !== null && typeof value === 'object' && 'none' in value ? undefined : value
}

/** In the Worker: answers a probe request with the store of its `prefix`, or undefined when `request` is not one. */
export async function serveStoreProbe(storeOf: (prefix: string | null) => ProxyStore, request: Request): Promise<Response | undefined> {
  const { pathname, searchParams } = new URL(request.url)
  if (!pathname.startsWith('/store/')) return undefined
  const store = storeOf(searchParams.get('prefix'))
  const method = pathname.slice('/store/'.length)
  if (method === 'subscribe') return subscription(store, searchParams.get('channel')!)
  const args = (await request.json()) as unknown[]
  try {
    const call = store[method as keyof ProxyStore] as (...args: unknown[]) => Promise<unknown>
    return new Response(toJson(await call.apply(store, args)))
  } catch (error) {
    return new Response(error instanceof Error ? error.message : String(error), { status: 503 })
  }
}

/** A stream of the channel's messages, a line each (`m` and the message as JSON; `missed` when the store says so), from the moment it listens. */
function subscription(store: ProxyStore, channel: string): Response {
  const encoder = new TextEncoder()
  let stop: (() => Promise<void>) | undefined
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const line = (text: string) => controller.enqueue(encoder.encode(`${text}\n`))
      stop = await store.subscribe(channel, { message: (message) => line(`m${JSON.stringify(message)}`), missed: () => line('missed') })
      line('listening')
    },
    async cancel() {
      await stop?.()
    },
  })
  return new Response(body, { headers: { 'content-type': 'text/plain' } })
}

/** In Node: the store of the Worker at `url` (its origin), its keys under `prefix` (default: the proxy's own store), as a ProxyStore. */
export function storeOverProbe(url: string, prefix?: string): ProxyStore {
  const query = prefix === undefined ? '' : `prefix=${encodeURIComponent(prefix)}&`
  const call =
    (method: string) =>
    async (...args: unknown[]): Promise<never> => {
      const response = await fetch(`${url}/store/${method}?${query}`, { method: 'POST', body: JSON.stringify(args) })
      const text = await response.text()
      if (response.status !== 200) throw new Error(text)
      return fromJson(text) as never
    }
  return {
    increment: call('increment'),
    claim: call('claim'),
    release: call('release'),
    get: call('get'),
    set: call('set'),
    hold: call('hold'),
    lease: call('lease'),
    push: call('push'),
    list: call('list'),
    publish: call('publish'),
    // JSON has no undefined in an array: a skipped operation's answer comes as null.
    batch: async (operations: readonly StoreOperation[]) => ((await call('batch')(operations)) as unknown[]).map((answer) => (answer === null ? undefined : answer)),
    async subscribe(channel, listener) {
      const abort = new AbortController()
      const response = await fetch(`${url}/store/subscribe?${query}channel=${encodeURIComponent(channel)}`, { signal: abort.signal })
      if (response.status !== 200) throw new Error(await response.text())
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
      let buffered = ''
      const nextLine = async (): Promise<string | undefined> => {
        while (!buffered.includes('\n')) {
          const { value, done } = await reader.read()
          if (done) return undefined
          buffered += value
        }
        const at = buffered.indexOf('\n')
        const line = buffered.slice(0, at)
        buffered = buffered.slice(at + 1)
        return line
      }
      if ((await nextLine()) !== 'listening') throw new Error('the subscription ended before it listened')
      void (async () => {
        for (let line = await nextLine(); line !== undefined; line = await nextLine()) {
          if (line === 'missed') listener.missed?.()
          else listener.message(JSON.parse(line.slice(1)) as string)
        }
      })().catch(() => {})
      return async () => abort.abort()
    },
  }
}
