import type { UploadProgress } from './definition.js'
import type { SenderHost } from './senderHost.js'

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
export async function transmit(
  request: TransportRequest,
  fetchImpl: typeof fetch | undefined,
  loadUploads: SenderHost['loadUploads'],
): Promise<Response> {
  const { method, url, headers, body, signal, onUploadProgress } = request
  if (body instanceof FormData && onUploadProgress && typeof XMLHttpRequest === 'function' && !fetchImpl) {
    // Should its chunk fail to load, fetch sends the upload, reporting it once sent.
    const xhr = await loadUploads().catch(() => undefined)
    if (xhr) return xhr.xhrTransmit(request, onUploadProgress, bodySize(body))
  }
  const response = await (fetchImpl ?? globalThis.fetch)(url, { method, headers, body, signal })
  if (onUploadProgress) {
    const total = bodySize(body)
    onUploadProgress({ loaded: total, total })
  }
  return response
}

/** Bytes in a request body as the client builds them: JSON text, or a form of fields and files. */
function bodySize(body: BodyInit | undefined): number {
  let size = 0
  for (const part of body instanceof FormData ? body.values() : [body]) {
    size += typeof part === 'string' ? new TextEncoder().encode(part).length : ((part as Blob | undefined)?.size ?? 0)
  }
  return size
}
