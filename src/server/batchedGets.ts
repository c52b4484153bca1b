import { togetherByTag, type ProxyStore } from './stores/store.js'

/** `get`, with the keys asked for before the next microtask (the jobs of a stream as it opens) read together: one batch per tag, in one round trip. */
export function batchedGets(store: ProxyStore) {
  let waiting: { key: string; resolve: (text: string | undefined) => void; reject: (error: unknown) => void }[] = []
  const flush = () => {
    const asked = waiting
    waiting = []
    togetherByTag(
      store,
      asked.map(({ key }) => ({ op: 'get', key }) as const),
    ).then(
      (texts) => asked.forEach((each, index) => each.resolve(texts[index] as string | undefined)),
      (error: unknown) => asked.forEach((each) => each.reject(error)),
    )
  }
  return (key: string) =>
    new Promise<string | undefined>((resolve, reject) => {
      if (waiting.length === 0) queueMicrotask(flush)
      waiting.push({ key, resolve, reject })
    })
}
