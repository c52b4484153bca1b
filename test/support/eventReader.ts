// An event stream of the proxy's (`GET {basePath}/events`), read as a page reads it.
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { expect } from 'vitest'

/** An event stream as a page reads it: `next()` is the next event, or 'end' when the stream ends. */
export function reader(response: Response) {
  const events: (EventSourceMessage | 'comment' | 'end')[] = []
  let wake = () => {}
  const parser = createParser({
    onEvent: (event) => {
      events.push(event)
      wake()
    },
    onComment: () => {
      events.push('comment')
      wake()
    },
  })
  void (async () => {
    const decoder = new TextDecoder()
    try {
      for await (const chunk of response.body!) parser.feed(decoder.decode(chunk, { stream: true }))
    } catch {
      // Cut by the page.
    }
    events.push('end')
    wake()
  })()
  const take = async (wanted: (item: (typeof events)[number]) => boolean) => {
    for (;;) {
      const index = events.findIndex(wanted)
      if (index >= 0) return events.splice(0, index + 1).pop()!
      await new Promise<void>((resolve) => (wake = resolve))
    }
  }
  /** The next job event (comments skipped), or 'end'. */
  const next = async () => {
    const item = await take((each) => each !== 'comment')
    return item === 'end' ? ('end' as const) : { id: (item as EventSourceMessage).id, event: (item as EventSourceMessage).event, ...(JSON.parse((item as EventSourceMessage).data) as JobEvent) }
  }
  return {
    next,
    /** The next event: a job's present state as it joins, here as its creation answered (no read of the service). */
    created: async () => {
      const event = await next()
      expect(event).toMatchObject({ event: 'job', status: 200, body: { status: 'pending' } })
      return event
    },
    /** Waits for a heartbeat. */
    comment: () => take((each) => each === 'comment'),
    /** What came and was not taken yet ('comment' for a heartbeat). */
    waiting: () => events.map((each) => (typeof each === 'string' ? each : each.event)),
  }
}
export interface JobEvent {
  tool: string
  jobId: string
  status: number
  body: { status: string; report?: string }
}

