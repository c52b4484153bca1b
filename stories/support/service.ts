// The simulated service behind the stories, one fresh instance per story render.
//
// One MSW worker serves the whole preview, and a docs page renders several stories at once in
// one document, so per-story handlers cannot simply be swapped in and out (msw-storybook-addon
// resets them on every story load, which would cut off the stories rendered before). Instead
// each story render gets its own service under its own base URL, and one permanent handler, the
// worker's initial handler, routes each request to the service its URL names.
import { getResponse, http, HttpResponse, type HttpHandler } from 'msw'
import { setupWorker } from 'msw/browser'
import { createMockService, MOCK_BASE_URL, type MockService, type MockServiceOptions } from '../../src/mock/index.js'
import { JOB_DURATION, LATENCY } from './environment.js'

const origin = new URL(MOCK_BASE_URL).origin

/** Every story render's service, by its number in the base URL. */
const services = new Map<string, { service: MockService; handlers: HttpHandler[] }>()
let renders = 0

const route = http.all(`${origin}/story/:render/*`, async ({ request, params }) => {
  const entry = services.get(String(params.render))
  // A request from a story that has gone (a poll still in flight): nothing answers it any more.
  if (!entry) return HttpResponse.json({ message: 'This story is no longer shown.' }, { status: 503 })
  const response = await getResponse([...entry.handlers, ...entry.service.handlers], request)
  return response ?? HttpResponse.json({ message: 'No such endpoint on the simulated service.' }, { status: 404 })
})

/** Starts the preview's MSW worker (for `mswLoader`): quiet, and deaf to everything but the simulated service. */
export async function startWorker() {
  const worker = setupWorker(route)
  await worker.start({ quiet: true, onUnhandledRequest: 'bypass' })
  return worker
}

/** A fresh simulated service for one story render, under a base URL of its own. */
export function createStoryService(
  options: MockServiceOptions = {},
  extraHandlers: (baseUrl: string) => HttpHandler[] = () => [],
): { service: MockService; register: () => () => void } {
  const render = String(++renders)
  const baseUrl = `${origin}/story/${render}/v1`
  const service = createMockService({ jobDurationMs: JOB_DURATION, latencyMs: LATENCY, ...options, baseUrl })
  const handlers = extraHandlers(baseUrl)
  return {
    service,
    register: () => {
      services.set(render, { service, handlers })
      return () => void services.delete(render)
    },
  }
}
