'use client'
import { useEffect, useId, useState, useSyncExternalStore, type ComponentType, type ForwardedRef } from 'react'
import type { ArtifactKind, UseArtifactResult } from '../react/index.js'
import type { CoreMessages } from '../react/internal.js'
import type { ArtifactLoading } from './ArtifactLoading.js'
import type { ArtifactViewerProps } from './ArtifactViewer.js'
import type { ErrorNoticeProps } from './ErrorNotice.js'
import type { Format } from './format.js'
import { savedFileName } from './artifactFile.js'
import { DownloadIcon, ExternalLinkIcon, FileIcon } from './fileIcons.js'

// `<ArtifactViewer>`'s own code: a chunk of its own, fetched when a result has a file to show (or
// on idle). What it needs of the page's modules (strings, formats, the download, its name, the notice)
// comes from the wrapper, which has them anyway: a bundler that splits by module (esbuild) would
// otherwise load them with a page's hooks alone.

/** What the wrapper works out with the page's modules. */
export interface ArtifactWords {
  messages: CoreMessages
  format: Format
  /** The file's download (`useArtifact(url)`), made by the wrapper. */
  artifact: UseArtifactResult
  /** The file's media type (`image/png`, as `mediaType` gives it), once it has come. */
  media: string | undefined
  /** What shows while the file downloads (as while this code came). */
  Loading: typeof ArtifactLoading
  ErrorNotice: ComponentType<ErrorNoticeProps>
  onRetry: () => void
  rootRef: ForwardedRef<HTMLElement>
}

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ')

/** The viewer's root attributes, given to a `<div>` or a `<figure>`. */
type Root = Omit<ArtifactViewerProps, 'url' | 'title' | 'className' | 'ref'>

export function ArtifactView(props: ArtifactViewerProps & ArtifactWords) {
  const { url, title, className, onRetry, rootRef, messages, format, artifact, media, Loading, ErrorNotice, ...rest } = props
  const root = { ...(rest as Root), ref: rootRef as ForwardedRef<HTMLDivElement> }
  const { objectUrl, blob, kind, error, navigable } = artifact
  const canShowPdf = usePdfViewer()
  const page = usePageText(kind === 'html' ? blob : undefined)
  const classes = cx('ct-artifact-viewer', className)
  // The name the file is saved under, once it has come.
  const fileName = media === undefined ? undefined : savedFileName(url, media, artifact.fileName)

  if (error || !url) {
    return (
      <div {...root} className={classes} data-state="error">
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

  if (!objectUrl || !blob || !kind || fileName === undefined) return <Loading root={root} className={classes} messages={messages} />

  // Browsers without a PDF viewer (most phones) would show an empty frame: the card's links serve instead.
  const framed = kind === 'html' || (kind === 'pdf' && canShowPdf)
  const preview = kind === 'image' || kind === 'video' || framed
  const file = { kind, objectUrl, fileName, title, page }
  const bar = <FileBar file={file} size={blob.size} navigable={navigable} icon={!preview} messages={messages} format={format} />
  return (
    <figure {...(root as Root)} ref={rootRef} className={classes} data-state="ready" data-kind={kind}>
      {/* A frame (a PDF viewer's toolbar, a page) holds many Tab stops: the file's actions come before it. */}
      {framed && bar}
      {preview && (
        <div className="ct-artifact-viewer__preview">
          <Preview file={file} messages={messages} />
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
function Preview({ file: { kind, objectUrl, fileName, title, page }, messages }: { file: ReadyFile; messages: CoreMessages }) {
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
function FileBar(props: { file: ReadyFile; size: number; navigable: boolean; icon: boolean; messages: CoreMessages; format: Format }) {
  const { file: { kind, objectUrl, fileName }, size, navigable, icon, messages, format } = props
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
