'use client'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { ToolsError } from '../tools/index.js'
import { useToolsContext } from './context.js'
import { queryKeys } from './keys.js'

export type ArtifactKind = 'image' | 'video' | 'pdf' | 'html' | 'file'

export interface UseArtifactResult {
  /** A `blob:` URL of the downloaded file, for `src` or `href`; revoked when no longer used. */
  objectUrl: string | undefined
  blob: Blob | undefined
  kind: ArtifactKind | undefined
  error: ToolsError | null
  isLoading: boolean
}

export function artifactKind(type: string): ArtifactKind {
  const mime = type.split(';')[0]!.trim().toLowerCase()
  if (mime.startsWith('image/')) return 'image'
  if (mime.startsWith('video/')) return 'video'
  if (mime === 'application/pdf') return 'pdf'
  if (mime === 'text/html' || mime === 'application/xhtml+xml') return 'html'
  return 'file'
}

/** Downloads a result link with the key (sent to the service's origin only). */
export function useArtifact(url: string | null | undefined): UseArtifactResult {
  const { client, fingerprint } = useToolsContext()
  const query = useQuery<Blob, ToolsError>({
    queryKey: queryKeys.artifact(fingerprint, url ?? ''),
    queryFn: ({ signal }) => client.artifact(url!, { signal }),
    enabled: Boolean(url),
    staleTime: Infinity,
    retry: false,
  })
  const blob = query.data
  const objectUrl = useObjectUrl(blob)
  return {
    objectUrl,
    blob,
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
