import { createParser, type EventSourceMessage } from 'eventsource-parser'

/** A job read that came pushed: the proxy's answer to reading the job, as its HTTP status and body. */
export interface PushedRead {
  status: number
  body: unknown
}

/**
 * What a waiter hears next: a pushed read; `'read'` to read the job now (the stream was quiet for
 * as long as the waiter allowed, or it pushed a refusal); `'poll'` when there is no stream to
 * wait on (none named, or it is failing): wait a poll's delay, then read.
 */
export type Pushed = PushedRead | 'read' | 'poll'

/** One follower of one job: takes what the stream pushes for it (first, the last push heard of it, if any), in turn. */
export interface JobWatcher {
  /** The next push, or `'read'` after `waitMs` of quiet; `'poll'` at once when no stream serves the job, or when `signal` aborts. */
  next(waitMs: number, signal?: AbortSignal): Promise<Pushed>
  /** Drops what came before a read of the job's own. */
  clear(): void
  stop(): void
}

export interface EventHubOptions {
  fetch?: typeof fetch
  /** The headers every request of the client carries. */
  headers: () => Promise<Headers>
}

/** Jobs one stream carries (the proxy's limit); the rest are polled. */
const MAX_JOBS = 50
/** After a failure, the stream is tried again after these waits; meanwhile, jobs are polled. */
const RETRY_MS = [1000, 2000, 5000, 10_000, 30_000]
/** Jobs followed within this long of each other open one stream, not one each. */
const GATHER_MS = 50
/** A stream that ends sooner than this without an event counts as a failure, so a bad proxy or network cannot make a loop. */
const SHORTEST_STREAM_MS = 1000

interface Watcher {
  pushed?: Pushed
  wake?: (value: Pushed) => void
}

/** The open stream, the jobs it carries (named, started while it was open or opening, or heard on it), and those it said it cannot. */
interface Connection {
  controller: AbortController
  keys: Set<string>
  full: Set<string>
}

/** One client's stream and the jobs followed on it: what every part of the hub reads and changes. */
interface Hub {
  options: EventHubOptions
  url?: string
  jobs: Map<string, Set<Watcher>>
  /**
   * The last push of each job heard lately, for a follower that comes after it: a job's present
   * state is pushed once as it joins the stream, and a resumed stream does not send it again. As
   * many as a stream's id names: its jobs in flight and the last that ended.
   */
  heard: Map<string, Pushed>
  connection?: Connection
  /** The last event id: it names each job's version, so any set of jobs resumes from it. */
  resume: string
  failures: number
  retryAt: number
  scheduled: boolean
}

/** The jobs a stream carries: the first `MAX_JOBS` in a stable order, but those the open one cannot (until it is opened again). */
const streamed = (hub: Hub) => [...hub.jobs.keys()].filter((key) => !hub.connection?.full.has(key)).sort().slice(0, MAX_JOBS)

function schedule(hub: Hub) {
  if (hub.scheduled) return
  hub.scheduled = true
  setTimeout(() => {
    hub.scheduled = false
    reconcile(hub)
  }, GATHER_MS)
}

function reconcile(hub: Hub) {
  const wanted = streamed(hub)
  // A job no longer followed stays on the stream until it ends: one stream fewer to open.
  if (hub.connection && wanted.length > 0 && wanted.every((key) => hub.connection!.keys.has(key))) return
  hub.connection?.controller.abort()
  hub.connection = undefined
  if (!hub.url || wanted.length === 0 || Date.now() < hub.retryAt) return
  void open(hub, hub.url, wanted)
}

function tell(hub: Hub, key: string, value: Pushed) {
  hub.heard.delete(key)
  hub.heard.set(key, value)
  if (hub.heard.size > 2 * MAX_JOBS) hub.heard.delete(hub.heard.keys().next().value!)
  for (const watcher of hub.jobs.get(key) ?? []) {
    if (watcher.wake) watcher.wake(value)
    else watcher.pushed = value
  }
}

/**
 * A stream that could not be had, or did not last: the first time, it is opened again at once
 * (resuming where it was); after that, with growing waits, and meanwhile its jobs are read.
 */
function fail(hub: Hub) {
  hub.connection = undefined
  if (hub.failures++ === 0) return schedule(hub)
  const wait = RETRY_MS[Math.min(hub.failures - 2, RETRY_MS.length - 1)]!
  hub.retryAt = Date.now() + wait
  setTimeout(() => schedule(hub), wait)
  // Whoever waits on the stream polls meanwhile, at a poll's pace: not all at once.
  for (const watchers of hub.jobs.values()) for (const watcher of watchers) watcher.wake?.('poll')
}

/** One event of the stream: a job's read, or word that it cannot carry a job. Returns whether it was the proxy's news. */
function heardEvent(hub: Hub, current: Connection, event: EventSourceMessage): boolean {
  if (event.id !== undefined) hub.resume = event.id
  if (event.event !== 'job' && event.event !== 'full') return false
  let data: { tool?: unknown; jobId?: unknown; status?: unknown; body?: unknown }
  try {
    data = JSON.parse(event.data) as typeof data
  } catch {
    return true // not the proxy's: the safety read covers what it meant
  }
  const key = `${data.tool}:${data.jobId}`
  if (event.event === 'full') {
    // It carries as many jobs as it may: this one is polled, as with no stream.
    current.keys.delete(key)
    current.full.add(key)
    for (const watcher of hub.jobs.get(key) ?? []) watcher.wake?.('poll')
    return true
  }
  if (typeof data.tool !== 'string' || typeof data.jobId !== 'string' || typeof data.status !== 'number') return true
  current.keys.add(key)
  // A refusal (a job gone, a session ended) is read as a read would be, with its error.
  tell(hub, key, data.status >= 200 && data.status < 300 ? { status: data.status, body: data.body } : 'read')
  return true
}

/** Opens the stream for `wanted` (resuming from the last event id) and reads it to its end. */
async function open(hub: Hub, address: string, wanted: string[]) {
  const controller = new AbortController()
  const current: Connection = (hub.connection = { controller, keys: new Set(wanted), full: new Set() })
  const openedAt = Date.now()
  let heard = false
  try {
    const headers = await hub.options.headers()
    headers.set('Accept', 'text/event-stream')
    if (hub.resume) headers.set('Last-Event-ID', hub.resume)
    const query = wanted.map((key) => `job=${encodeURIComponent(key)}`).join('&')
    const init: RequestInit = { headers, signal: controller.signal, credentials: 'same-origin', cache: 'no-store' }
    const response = await (hub.options.fetch ?? fetch)(`${address}?${query}`, init)
    if (!response.ok || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
      await response.body?.cancel().catch(() => {})
      throw new Error(`event stream: ${response.status}`)
    }
    const parser = createParser({
      onEvent(event) {
        // A stream that carries events is a healthy one: its next failure is tried again at once.
        if (!heardEvent(hub, current, event)) return
        heard = true
        hub.failures = 0
      },
    })
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader()
    try {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parser.feed(chunk.value)
    } catch {
      // Cut on the way (a proxy restarting, a network change): resumed below like an end, unless it keeps happening.
    }
    if (hub.connection !== current) return
    if (!heard && Date.now() - openedAt < SHORTEST_STREAM_MS) throw new Error('event stream: ended at once')
    // Ended by the proxy (its time is up, or every job ended), or cut after a while: resume at once.
    hub.failures = 0
    hub.connection = undefined
    schedule(hub)
  } catch {
    if (hub.connection === current) fail(hub)
  }
}

/** Follows one job on the stream until `stop()`. */
function watch(hub: Hub, tool: string, jobId: string): JobWatcher {
  const key = `${tool}:${jobId}`
  const watcher: Watcher = { pushed: hub.heard.get(key) }
  let watchers = hub.jobs.get(key)
  if (!watchers) hub.jobs.set(key, (watchers = new Set()))
  watchers.add(watcher)
  schedule(hub)
  return {
    next(waitMs, signal) {
      const pushed = watcher.pushed
      if (pushed) {
        watcher.pushed = undefined
        return Promise.resolve(pushed)
      }
      if (!hub.url || Date.now() < hub.retryAt || !streamed(hub).includes(key) || signal?.aborted) return Promise.resolve('poll')
      return new Promise((resolve) => {
        const done = (value: Pushed) => {
          clearTimeout(timer)
          signal?.removeEventListener('abort', aborted)
          watcher.wake = undefined
          resolve(value)
        }
        const aborted = () => done('poll')
        const timer = setTimeout(() => done('read'), waitMs)
        signal?.addEventListener('abort', aborted, { once: true })
        watcher.wake = done
      })
    },
    clear() {
      watcher.pushed = undefined
    },
    stop() {
      watcher.wake?.('poll')
      watchers.delete(watcher)
      if (watchers.size === 0 && hub.jobs.get(key) === watchers) hub.jobs.delete(key)
      schedule(hub)
    },
  }
}

/**
 * One Server-Sent Events stream per client, for every job it follows: the proxy names it in a
 * job's answers (`X-Tools-Events`), and pushes each job read's answer as the job joins the stream
 * (its present state) and as it changes. It is read with fetch (the client's headers and cookies
 * go with it). Jobs this client starts while it is open or opening join it (the proxy adds the
 * user's new jobs, and those created just before it opened); it is opened again only for a job it
 * does not carry, or resumed with `Last-Event-ID` when it ends; a job it says it cannot carry
 * (`full`), and any failure, fall back to polling.
 */
export function createEventHub(options: EventHubOptions) {
  const hub: Hub = { options, jobs: new Map(), heard: new Map(), resume: '', failures: 0, retryAt: 0, scheduled: false }
  return {
    /** Takes the stream's address from a job's answer; only one on the client's own origin. */
    offer(address: string | null, base: string) {
      if (!address) return
      let resolved: URL
      try {
        resolved = new URL(address, `${base}/`)
      } catch {
        return
      }
      if (resolved.origin !== new URL(base).origin || resolved.href === hub.url) return
      hub.url = resolved.href
      schedule(hub)
    },

    /**
     * A job this client started: the stream open or opening carries it (the proxy adds the user's
     * new jobs, and those created just before it opened), unless it said it cannot.
     */
    started(tool: string, jobId: string) {
      const key = `${tool}:${jobId}`
      if (hub.connection && !hub.connection.full.has(key)) hub.connection.keys.add(key)
    },

    watch: (tool: string, jobId: string) => watch(hub, tool, jobId),
  }
}

export type EventHub = ReturnType<typeof createEventHub>
