import { hashText } from '../../tools/internal.js'

/** What an event stream sends: its headers, its job events, and the id naming what the page has of each job. */

const encoder = new TextEncoder()

export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'private, no-store',
  'X-Content-Type-Options': 'nosniff',
  // nginx and others buffer answers unless told: events must go out as they happen.
  'X-Accel-Buffering': 'no',
} as const

/** One job's event, `{ tool, jobId, status, body }`: what a read of it answers the page (`json`, its body); `id` when it names a version. */
export function jobEvent(tool: string, handle: string, status: number, json: string, id?: string): Uint8Array {
  const data = `{"tool":${JSON.stringify(tool)},"jobId":${JSON.stringify(handle)},"status":${status},"body":${json}}`
  return encoder.encode(`${id === undefined ? '' : `id: ${id}\n`}event: job\ndata: ${data.replace(/\n/g, '\ndata: ')}\n\n`)
}

/** A job the stream does not carry (it carries as many in flight as it may): the page follows it without the stream. */
export const fullEvent = (tool: string, handle: string): Uint8Array =>
  encoder.encode(`event: full\ndata: {"tool":${JSON.stringify(tool)},"jobId":${JSON.stringify(handle)}}\n\n`)

/** A job's short tag in an event id. */
export const jobTag = (tool: string, handle: string) => hashText(`${tool}:${handle}`)

/** An event id: each job's tag with the version the page has of it. */
export const eventId = (versions: readonly { tag: string; sent: string }[]) =>
  versions
    .filter((each) => each.sent)
    .map((each) => `${each.tag}~${each.sent}`)
    .join('.')

/** The version the page has of each job, by tag, as its last event id says. */
export const versionsIn = (lastEventId: string | null) =>
  new Map(
    (lastEventId?.split('.') ?? []).map((entry) => entry.split('~') as [string, string?]).filter((entry): entry is [string, string] => entry.length === 2),
  )
