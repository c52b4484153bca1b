// The simulated service alone in a process, over real HTTP on loopback, for a client process
// that is killed and started again. Built to JavaScript by the test that starts it. Prints its
// base URL; then takes one JSON command a line on stdin:
//   { "hold": "before" }  the next call is held before the service sees it (never processed);
//   { "hold": "answer" }  the next call is processed and billed, its answer held;
//   { "hold": "poll" }    the next job read is answered by the service but held on the way;
// and prints `{ "held": <which> }` once that request is where it was asked to be;
//   { "calls": true }     prints the calls so far: `{ "calls": [{ idempotencyKey, replay, billed }] }`;
//   { "reset": true }     back to a fresh service; prints `{ "reset": true }`.
import { createInterface } from 'node:readline'
import { createMockService } from '../../src/mock/index.js'
import { listen } from './http.js'

type Hold = 'before' | 'answer' | 'poll'
const say = (line: object) => console.log(JSON.stringify(line))
let hold: Hold | undefined

const aborted = (request: Request) => new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }))

/** Tells the test once the service has logged the held request (processed, and billed if a call). */
async function toldWhenLogged(which: Hold, before: number) {
  for (let turn = 0; service.log.length === before && turn < 100_000; turn++) await new Promise((resolve) => setImmediate(resolve))
  say({ held: which })
}

async function answer(request: Request): Promise<Response> {
  const kind = request.method === 'POST' ? 'call' : new URL(request.url).pathname.includes('/jobs/') ? 'poll' : 'other'
  const which = hold
  if (which === 'before' && kind === 'call') {
    hold = undefined
    say({ held: which })
    await aborted(request)
    return Response.error()
  }
  if ((which === 'answer' && kind === 'call') || (which === 'poll' && kind === 'poll')) {
    hold = undefined
    service.inject({ match: { kind }, fault: 'held' })
    void toldWhenLogged(which, service.log.length)
  }
  return service.fetch(request)
}

const server = await listen(answer)
const service = createMockService({ jobDurationMs: 300, baseUrl: `${server.url}/v1` })
say({ url: service.baseUrl })

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line) as { hold?: Hold; calls?: true; reset?: true }
  if (command.hold) hold = command.hold
  if (command.calls) {
    const calls = service.log.filter((entry) => entry.kind === 'call')
    say({ calls: calls.map(({ idempotencyKey, replay, billed }) => ({ idempotencyKey, replay, billed: billed !== null })) })
  }
  if (command.reset) {
    service.reset()
    hold = undefined
    say({ reset: true })
  }
})
