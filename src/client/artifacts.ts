import type { CallOptions } from './definition.js'
import { issue, validationError } from './errors.js'
import { dispositionFileName } from './media.js'
import type { Send } from './send.js'

/** A downloaded result file, with the name the service gave it in `Content-Disposition`, if any. */
export interface ArtifactFile {
  blob: Blob
  /** As sent: clean it before showing or saving it (the components do). */
  fileName?: string
}

/** Downloads a result link with the key; the key goes to the service's origin only. */
export async function downloadArtifact(
  send: Send,
  root: string,
  url: string,
  opts: Pick<CallOptions, 'signal'> = {},
): Promise<ArtifactFile> {
  let target: URL | undefined
  try {
    target = new URL(url, root + '/')
  } catch {
    // Not a link at all: refused as foreign below.
  }
  if (target?.origin !== new URL(root).origin) throw validationError([issue('url', 'foreign-url')])
  const response = await send(undefined, target.href, { signal: opts.signal })
  return { blob: await response.blob(), fileName: dispositionFileName(response.headers.get('content-disposition')) }
}
