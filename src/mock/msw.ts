import type { HttpHandler } from 'msw'

/**
 * MSW, where it loads. It is loaded here, once, rather than imported: MSW's module makes a cookie
 * store as it loads, which throws where there is neither Node nor `localStorage` (workerd), and
 * MSW is an optional peer. Where it does not load, the service still answers through `fetch`.
 */
const loaded: { msw: typeof import('msw') } | { error: unknown } = await import('msw').then(
  (msw) => ({ msw }),
  (error: unknown) => ({ error }),
)

/** The service as MSW request handlers: one for every request under `baseUrl`, answered by `answer`. */
export function mswHandlers(baseUrl: string, answer: (request: Request) => Promise<Response> | undefined): HttpHandler[] {
  if ('error' in loaded) {
    throw new Error(
      `The simulated service's MSW handlers need msw 2, which did not load here (${String(loaded.error)}). ` +
        'Install msw, or call the service through its fetch, which needs no MSW.',
      { cause: loaded.error },
    )
  }
  return [loaded.msw.http.all(`${baseUrl}/*`, ({ request }) => answer(request))]
}
