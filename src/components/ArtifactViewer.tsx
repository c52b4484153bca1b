'use client'
import { useEffect, useId, useState, useSyncExternalStore, type ForwardedRef } from 'react'
import { useArtifact, type ArtifactKind } from '../react/index.js'
import { artifactFileName } from './artifactFile.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { useFormat } from './format.js'
import { DownloadIcon, ExternalLinkIcon, FileIcon } from './icons.js'
import { useMessages } from './useMessages.js'

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

/**
 * Shows a result file: an image in `<img>`, a video in `<video controls>`, a PDF in a frame,
 * an HTML page in a fully sandboxed frame (no scripts, no same-origin), anything else as a
 * file card. Every file gets a download link named after the link's last path segment, and
 * passive types an "open in a new tab" link. While it downloads it says so (`aria-busy`);
 * a failure is explained by an `<ErrorNotice>`, with "Try again" where a retry can help.
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
  // A retry mounts the view afresh: its query, failed and holding no file, fetches again on mount.
  const [attempt, setAttempt] = useState(0)
  return <ArtifactView key={attempt} {...props} rootRef={ref} onRetry={() => setAttempt((count) => count + 1)} />
})

interface ArtifactViewProps extends ArtifactViewerProps {
  onRetry: () => void
  rootRef: ForwardedRef<HTMLElement>
}

function ArtifactView({ url, title, className, onRetry, rootRef, ...rest }: ArtifactViewProps) {
  const root = { ...rest, ref: rootRef }
  const messages = useMessages()
  const { objectUrl, blob, kind, error, fileName: given, navigable } = useArtifact(url)
  const canShowPdf = usePdfViewer()
  const page = usePageText(kind === 'html' ? blob : undefined)
  const classes = cx('ct-artifact-viewer', className)

  if (error || !url) {
    return (
      <div {...(root as RootProps<HTMLDivElement>)} className={classes} data-state="error">
        {error ? (
          <ErrorNotice error={error} onRetry={onRetry} />
        ) : (
          <p className="ct-artifact-viewer__status" role="alert">
            {messages.artifact.failed}
          </p>
        )}
      </div>
    )
  }

  if (!objectUrl || !blob || !kind) {
    return (
      <div {...(root as RootProps<HTMLDivElement>)} className={classes} data-state="loading" aria-busy="true">
        <p className="ct-artifact-viewer__status" role="status">
          <span className="ct-artifact-viewer__spinner" aria-hidden="true" />
          {messages.artifact.loading}
        </p>
      </div>
    )
  }

  const fileName = artifactFileName(url, blob.type, given)
  // Browsers without a PDF viewer (most phones) would show an empty frame: the card's links serve instead.
  const framed = kind === 'html' || (kind === 'pdf' && canShowPdf)
  const preview = kind === 'image' || kind === 'video' || framed
  const file = { kind, objectUrl, fileName, title, page }
  const bar = <FileBar file={file} size={blob.size} navigable={navigable} icon={!preview} />
  return (
    <figure {...root} className={classes} data-state="ready" data-kind={kind}>
      {/* A frame (a PDF viewer's toolbar, a page) holds many Tab stops: the file's actions come before it. */}
      {framed && bar}
      {preview && (
        <div className="ct-artifact-viewer__preview">
          <Preview file={file} />
        </div>
      )}
      {!framed && bar}
    </figure>
  )
}

/** A ready file, as its parts show it. */
interface ReadyFile {
  kind: ArtifactKind
  objectUrl: string
  fileName: string
  title: string | undefined
  /** An HTML file's text, once read. */
  page: string | undefined
}

/** The file itself: a picture, a video, or a PDF or HTML page in a frame. */
function Preview({ file: { kind, objectUrl, fileName, title, page } }: { file: ReadyFile }) {
  const messages = useMessages()
  const kindName = messages.artifact.kinds[kind]
  if (kind === 'image') return <img className="ct-artifact-viewer__image" src={objectUrl} alt={title ?? kindName} />
  if (kind === 'video') {
    return (
      <video className="ct-artifact-viewer__video" src={objectUrl} controls playsInline preload="metadata" aria-label={title ?? kindName} />
    )
  }
  // An HTML page is generated content from the network: shown from its text (srcdoc) in an
  // empty sandbox, so it has an opaque origin and no scripts, forms, popups or top navigation,
  // and there is no blob: URL of it to open as a page of the host's origin. Adding
  // allow-scripts together with allow-same-origin would let it act as the partner's site.
  // A PDF is not sandboxed: browsers refuse to show one in a sandboxed frame.
  return (
    <iframe
      className={`ct-artifact-viewer__frame ct-artifact-viewer__frame--${kind}`}
      src={kind === 'html' ? undefined : objectUrl}
      srcDoc={kind === 'html' ? (page ?? '') : undefined}
      sandbox={kind === 'html' ? '' : undefined}
      referrerPolicy="no-referrer"
      title={title ?? (kind === 'html' ? messages.artifact.iframeTitle : fileName)}
      width="100%"
      // With no stylesheet: most of a page of a PDF at a column's width, its actions in view above it.
      height={kind === 'pdf' ? 600 : 480}
    />
  )
}

/** The file's name, kind and size, Download, and "Open in a new tab" for passive types. */
function FileBar(props: { file: ReadyFile; size: number; navigable: boolean; icon: boolean }) {
  const { file: { kind, objectUrl, fileName }, size, navigable, icon } = props
  const messages = useMessages()
  const format = useFormat()
  const nameId = useId()
  return (
    <figcaption className="ct-artifact-viewer__bar">
      {icon && <FileIcon className="ct-artifact-viewer__file-icon" />}
      <span className="ct-artifact-viewer__info">
        <span className="ct-artifact-viewer__name" id={nameId} title={fileName}>
          {fileName}
        </span>{' '}
        <span className="ct-artifact-viewer__meta">
          {messages.artifact.kinds[kind]} · {format.bytes(size)}
        </span>
      </span>{' '}
      <span className="ct-artifact-viewer__actions">
        {/* Described by the file name: a page of several viewers has several "Download" links. */}
        <a
          className="ct-button ct-button--secondary ct-artifact-viewer__download"
          href={objectUrl}
          download={fileName}
          aria-describedby={nameId}
        >
          <DownloadIcon />
          {messages.artifact.download}
        </a>
        {navigable && (
          <>
            {' '}
            <a
              className="ct-button ct-button--quiet ct-artifact-viewer__open"
              href={objectUrl}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={nameId}
            >
              <ExternalLinkIcon />
              {messages.artifact.openInNewTab}
            </a>
          </>
        )}
      </span>
    </figcaption>
  )
}

/** The text of an HTML file, read after render; undefined until read. */
function usePageText(blob: Blob | undefined): string | undefined {
  const [page, setPage] = useState<{ blob: Blob; text: string }>()
  useEffect(() => {
    let current = true
    void blob?.text().then((text) => current && setPage({ blob, text }))
    return () => {
      current = false
    }
  }, [blob])
  return page && page.blob === blob ? page.text : undefined
}

const noSubscription = () => () => {}

/** False where the browser says it cannot show PDFs inline; true on the server and where it does not say. */
function usePdfViewer(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => (navigator as { pdfViewerEnabled?: boolean }).pdfViewerEnabled !== false,
    () => true,
  )
}
