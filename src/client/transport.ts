import type { UploadProgress } from './definition.js'

export interface TransportRequest {
  method: 'GET' | 'POST'
  url: string
  headers: Headers
  body?: BodyInit
  signal?: AbortSignal
  onUploadProgress?: (progress: UploadProgress) => void
}

/** Sends one request. Rejects (TypeError, AbortError) only where no response arrived. */
export type Transport = (request: TransportRequest) => Promise<Response>

/**
 * fetch cannot report upload progress, so it reports the whole body once sent. The fetch
 * function is looked up per request so that one installed later (a test's) is used.
 */
export function fetchTransport(fetchImpl?: typeof fetch): Transport {
  return async ({ method, url, headers, body, signal, onUploadProgress }) => {
    const response = await (fetchImpl ?? globalThis.fetch)(url, { method, headers, body, signal })
    if (onUploadProgress) {
      const total = bodySize(body)
      onUploadProgress({ loaded: total, total })
    }
    return response
  }
}

/** XMLHttpRequest, for the upload progress events fetch lacks. */
export const xhrTransport: Transport = ({ method, url, headers, body, signal, onUploadProgress }) =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(method, url)
    // An ArrayBuffer, not a Blob: a DOM Blob need not be readable by the Response of another realm.
    xhr.responseType = 'arraybuffer'
    headers.forEach((value, name) => xhr.setRequestHeader(name, value))
    const expected = bodySize(body)
    if (onUploadProgress) {
      xhr.upload.onprogress = (event) =>
        onUploadProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : expected })
    }
    const settle = () => signal?.removeEventListener('abort', onAbort)
    const cancelled = () => {
      settle()
      reject(signal?.reason ?? new DOMException('The upload was cancelled.', 'AbortError'))
    }
    // Settle at once: some XHR implementations still deliver the answer of an aborted request.
    const onAbort = () => {
      xhr.abort()
      cancelled()
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    xhr.onload = () => {
      settle()
      const nullBody = [101, 204, 205, 304].includes(xhr.status)
      resolve(
        new Response(nullBody ? null : (xhr.response as ArrayBuffer), {
          status: xhr.status,
          statusText: xhr.statusText,
          headers: parseHeaders(xhr.getAllResponseHeaders()),
        }),
      )
    }
    xhr.onerror = () => {
      settle()
      reject(new TypeError('Network request failed'))
    }
    xhr.onabort = cancelled
    if (signal?.aborted) return xhr.abort()
    xhr.send(body as XMLHttpRequestBodyInit | undefined)
  })

/** Picks the transport: XMLHttpRequest for an upload whose progress is wanted, where it exists. */
export function chooseTransport(
  request: Pick<TransportRequest, 'body' | 'onUploadProgress'> | undefined,
  fetchImpl?: typeof fetch,
): Transport {
  const upload = request?.body instanceof FormData && request.onUploadProgress
  return upload && typeof XMLHttpRequest === 'function' && !fetchImpl ? xhrTransport : fetchTransport(fetchImpl)
}

function parseHeaders(raw: string): Headers {
  const headers = new Headers()
  for (const line of raw.trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':')
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim())
  }
  return headers
}

/** Bytes in a request body as the client builds them: JSON text, or a form of fields and files. */
function bodySize(body: BodyInit | undefined): number {
  let size = 0
  for (const part of body instanceof FormData ? body.values() : [body]) {
    size += typeof part === 'string' ? new TextEncoder().encode(part).length : ((part as Blob | undefined)?.size ?? 0)
  }
  return size
}
