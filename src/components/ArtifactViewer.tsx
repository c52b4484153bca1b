'use client'
import { useState, type ForwardedRef } from 'react'
import { useArtifact } from '../react/index.js'
import { mediaType } from '../react/internal.js'
import { ArtifactLoading } from './ArtifactLoading.js'
import type { ArtifactWords } from './ArtifactView.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { useFormat } from './format.js'
import { lazyPart } from './lazyPart.js'
import { useCoreMessages } from './useMessages.js'
import { WaitNotice } from './WaitNotice.js'

/** One result link to show, and what to call it. */
export interface ArtifactViewerProps extends Omit<RootProps, 'title'> {
  /**
   * A result link, as in `result.artifacts` or `job.artifacts`. It is downloaded with the
   * provider's key (sent to the service's origin only), so it works for every tool's links.
   */
  url: string
  /** What the file shows: the image's alt text and the frame's title. Defaults name the kind of file. */
  title?: string
}

type ViewProps = ArtifactViewerProps & ArtifactWords

/** The viewer while its code comes: as while the file downloads; offline, the wait for the connection. */
function ArtifactStand({ className, rootRef, messages, failed }: ViewProps & { failed: boolean }) {
  return (
    <ArtifactLoading root={{ ref: rootRef as ForwardedRef<HTMLDivElement> }} className={cx('ct-artifact-viewer', className)} messages={messages}>
      <WaitNotice waiting={failed ? { reason: 'offline' } : null} />
    </ArtifactLoading>
  )
}

const view = lazyPart<ViewProps>(() => import('./ArtifactView.js').then((chunk) => chunk.ArtifactView), ArtifactStand)

/** One download of the file (a retry mounts it afresh), handed to the viewer's code with the page's strings. */
function ArtifactDownload(props: ArtifactViewerProps & Pick<ArtifactWords, 'onRetry' | 'rootRef'>) {
  const artifact = useArtifact(props.url)
  return (
    <view.Part
      {...props}
      {...{ artifact, ErrorNotice }}
      media={artifact.blob && mediaType(artifact.blob.type)}
      messages={useCoreMessages()}
      format={useFormat()}
      Loading={ArtifactLoading}
    />
  )
}

/**
 * Shows a result file: an image in `<img>`, a video in `<video controls>`, a PDF in a frame,
 * an HTML page in a fully sandboxed frame (no scripts, no same-origin), anything else as a
 * file card. Every file gets a download link named after the link's last path segment, and
 * passive types an "open in a new tab" link. While it downloads it says so (`aria-busy`);
 * a failure is explained by an `<ErrorNotice>`, with "Try again" where a retry can help.
 *
 * Its code is a chunk of its own, fetched when a file is first shown (a `<ToolRunner>` fetches it
 * on idle): until it comes the viewer looks as while the file downloads, and the download has
 * already begun. Should that fetch fail offline, it says it waits for the connection.
 *
 * Classes: `ct-artifact-viewer`, parts `__status`, `__preview`, `__image`, `__video`,
 * `__frame` (`__frame--pdf`, `__frame--html`), `__bar`, `__file-icon`, `__info`, `__name`,
 * `__meta`, `__actions`, `__download`, `__open`. `data-state`: `loading` | `ready` | `error`;
 * `data-kind` (when ready): `image` | `video` | `pdf` | `html` | `file`.
 *
 * Pages that set a Content-Security-Policy must allow `blob:` in `img-src`, `media-src` and
 * `frame-src`: previews are shown from object URLs of the downloaded files.
 *
 * @example
 * {job.artifacts.map((url) => <ArtifactViewer key={url} url={url} />)}
 */
export const ArtifactViewer = withRef(function ArtifactViewer(props: ArtifactViewerProps, ref: ForwardedRef<HTMLElement>) {
  // A retry mounts the download afresh: its query, failed and holding no file, fetches again on mount.
  const [attempt, setAttempt] = useState(0)
  return <ArtifactDownload key={attempt} {...props} rootRef={ref} onRetry={() => setAttempt((count) => count + 1)} />
})

/** Fetches the viewer's code ahead of a file's first showing. */
export const loadArtifactViewer = view.load
