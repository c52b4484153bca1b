import type { UploadProgress } from './definition.js'

export interface TransportRequest {
  method: 'GET' | 'POST'
  url: string
  headers: Headers
  body?: BodyInit
  signal?: AbortSignal
  onUploadProgress?: (progress: UploadProgress) => void
}

/**
 * Sends one request; rejects (TypeError, AbortError) only where no response arrived. An upload
 * whose progress is wanted goes through XMLHttpRequest where it exists; fetch cannot report
 * upload progress, so it reports the whole body once sent. The global fetch is looked up per
 * request so that one installed later (a test's) is used.
 */
export async function transmit(request: TransportRequest, fetchImpl?: typeof fetch): Promise<Response> {
  const { method, url, headers, body, signal, onUploadProgress } = request
  if (body instanceof FormData && onUploadProgress && typeof XMLHttpRequest === 'function' && !fetchImpl) {
    return xhrTransmit(request, onUploadProgress)
  }
  const response = await (fetchImpl ?? globalThis.fetch)(url, { method, headers, body, signal })
  if (onUploadProgress) {
    const total = bodySize(body)
    onUploadProgress({ loaded: total, total })
  }
  return response
}

/** XMLHttpRequest, for the upload progress events fetch lacks. */
const xhrTransmit = (
  { method, url, headers, body, signal }: TransportRequest,
  onUploadProgress: (progress: UploadProgress) => void,
) =>
  new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(method, url)
    // An ArrayBuffer, not a Blob: a DOM Blob need not be readable by the Response of another realm.
    xhr.responseType = 'arraybuffer'
    headers.forEach((value, name) => xhr.setRequestHeader(name, value))
    const expected = bodySize(body)
    xhr.upload.onprogress = (event) =>
      onUploadProgress({ loaded: event.loaded, total: event.lengthComputable ? event.total : expected })
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
