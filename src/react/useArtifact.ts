'use client'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useMemo, useState } from 'react'
import { type ArtifactFile, type ToolsError } from '../tools/index.js'
import { mediaType } from '../tools/internal.js'
import { useToolsContext } from './context.js'
import { queryKey } from './keys.js'

export type ArtifactKind = 'image' | 'video' | 'pdf' | 'html' | 'file'

export interface UseArtifactResult {
  /**
   * A `blob:` URL of the downloaded file, for `src` or `href`; revoked when no longer used. Only a
   * passive type (image, video, audio, PDF, plain text, JSON) keeps its own type: anything else
   * (HTML, SVG, XML, untyped) gets a copy typed `application/octet-stream`, which a browser saves
   * rather than runs, since a `blob:` URL opened as a page acts with the host page's origin.
   */
  objectUrl: string | undefined
  /** Whether `objectUrl` keeps the file's own (passive) type and may be opened in a tab. */
  navigable: boolean
  /** The file as downloaded, with its own type. */
  blob: Blob | undefined
  /** The name the service gave in `Content-Disposition`, as sent (clean it before use). */
  fileName: string | undefined
  kind: ArtifactKind | undefined
  error: ToolsError | null
  isLoading: boolean
}

/** Types a browser shows as a passive document: the only ones whose `blob:` URL may be navigated to. */
const PASSIVE = /^(image\/(png|jpeg|webp|gif|avif)|(video|audio)\/[\w.+-]+|application\/(pdf|json)|text\/plain)$/

export function artifactKind(type: string): ArtifactKind {
  const mime = mediaType(type)
  // An SVG is an active document (it can carry script): kept to a download, not shown as an image.
  if (mime.startsWith('image/') && mime !== 'image/svg+xml') return 'image'
  if (mime.startsWith('video/')) return 'video'
  if (mime === 'application/pdf') return 'pdf'
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html'
  return 'file'
}

/** Downloads a result link with the key (sent to the service's origin only). */
export function useArtifact(url: string | null | undefined): UseArtifactResult {
  const { client, fingerprint } = useToolsContext()
  const query = useQuery<ArtifactFile, ToolsError>({
    queryKey: queryKey(fingerprint, 'artifact', url ?? ''),
    queryFn: ({ signal }) => client.artifactFile(url!, { signal }),
    enabled: Boolean(url),
    staleTime: Infinity,
    retry: false,
  })
  const blob = query.data?.blob
  const navigable = Boolean(blob && PASSIVE.test(mediaType(blob.type)))
  const linked = useMemo(
    () => (blob && !navigable ? new Blob([blob], { type: 'application/octet-stream' }) : blob),
    [blob, navigable],
  )
  const objectUrl = useObjectUrl(linked)
  return {
    objectUrl,
    navigable,
    blob,
    fileName: query.data?.fileName,
    kind: blob ? artifactKind(blob.type) : undefined,
    error: query.error,
    isLoading: query.isLoading || (Boolean(blob) && !objectUrl),
  }
}

/**
 * A `blob:` URL of `blob`, for `src` or `href`: made after render and revoked when the blob
 * changes or the component unmounts, so each URL is revoked exactly once (StrictMode included).
 */
export function useObjectUrl(blob: Blob | null | undefined): string | undefined {
  const [current, setCurrent] = useState<{ blob: Blob; url: string }>()
  useEffect(() => {
    // Some test DOMs have no URL store: there is then nothing to show.
    if (!blob || typeof URL.createObjectURL !== 'function') return
    const url = URL.createObjectURL(blob)
    // eslint-disable-next-line react-hooks/set-state-in-effect -- syncing with the browser's URL store
    setCurrent({ blob, url })
    return () => {
      URL.revokeObjectURL(url)
      setCurrent(undefined)
    }
  }, [blob])
  // Until the effect has run for a new blob, the old blob's URL is not given for it.
  return current && current.blob === blob ? current.url : undefined
}
