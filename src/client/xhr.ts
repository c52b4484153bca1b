import type { UploadProgress } from './definition.js'
import type { TransportRequest } from './transport.js'

// A chunk of its own (loadUploads in encode.ts): only a file's upload whose progress is wanted
// goes this way. It imports nothing the first load has, so no bundler splits a third chunk off.

/** XMLHttpRequest, for the upload progress events fetch lacks. */
export const xhrTransmit = (
  { method, url, headers, body, signal }: TransportRequest,
  onUploadProgress: (progress: UploadProgress) => void,
  expected: number,
) =>
  new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open(method, url)
    // An ArrayBuffer, not a Blob: a DOM Blob need not be readable by the Response of another realm.
    xhr.responseType = 'arraybuffer'
    headers.forEach((value, name) => xhr.setRequestHeader(name, value))
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
