'use client'
import type { Accept } from 'react-dropzone'
import { type FileToolId, type UploadProgress } from '../react/index.js'
import type { ForwardedRef } from 'react'
import { useObjectUrl } from '../react/internal.js'
import { cx, withRef } from './classNames.js'
import { defaultMaxSize, isPreviewable, toolAccept } from './fileAccept.js'
import type { Words } from './FileDropView.js'
import { useFormat } from './format.js'
import { UploadIcon } from './icons.js'
import { lazyPart } from './lazyPart.js'
import { useCoreMessages } from './useMessages.js'
import { WaitNotice } from './WaitNotice.js'

export interface FileDropProps {
  /** The file tool the file is for: its catalogue row's `accept` is the default of `accept`. */
  tool?: FileToolId
  /**
   * Accepted types in react-dropzone's form, e.g. `{ 'image/*': ['.png', '.jpg'] }`. Default:
   * the `tool`'s types from the catalogue; with neither, any type.
   */
  accept?: Accept
  /**
   * Largest file accepted, in bytes. Default 200 MB when video (or any type) is accepted,
   * 20 MB otherwise (images, PDF, documents). The service publishes no limit: set your own.
   */
  maxBytes?: number
  /** @deprecated The old name of `maxBytes`, still honoured when `maxBytes` is not given. */
  maxSize?: number
  /** The selected file (controlled). */
  file: File | null
  /** Called with a file that passed the checks, or `null` when the person removes it. */
  onFileChange(file: File | null): void
  /** Bytes sent so far, while `uploading`; `null` shows a bar with no value until the first report. */
  progress?: UploadProgress | null
  /** Shows the progress bar and Cancel, and locks the selection. */
  uploading?: boolean
  /** Shows a Cancel button while uploading. */
  onCancel?: () => void
  /** Locks the drop area (e.g. while a run is in flight). */
  disabled?: boolean
  /** Id of the drop area (a `<button>`): for links from a validation notice, or `<label htmlFor>`. */
  id?: string
  /** Ids of more text describing the drop area, e.g. a `<FieldError>`. */
  'aria-describedby'?: string
  /** Marks the drop area invalid, e.g. when the last run reported a problem with the file. */
  invalid?: boolean
  className?: string
}

/** The drop area's state, in `data-state`. */
export type FileDropState = 'idle' | 'dragging' | 'selected' | 'rejected' | 'uploading' | 'disabled'

/** The drop area while its code comes: the same prompt, locked; offline, the wait for the connection (also the upload form's, while its own code comes). */
export function FileDropStand({ id, className, failed }: FileDropProps & { failed: boolean }) {
  const messages = useCoreMessages()
  return (
    <div className={cx('ct-file-drop', className)} data-state="loading" aria-busy={!failed || undefined}>
      <button type="button" id={id} className="ct-file-drop__zone" disabled>
        <UploadIcon className="ct-file-drop__icon" />
        <br />
        <span className="ct-file-drop__prompt">{messages.upload.drop}</span>
        <br />
        <span className="ct-file-drop__choose">{messages.upload.choose}</span>
      </button>
      <WaitNotice waiting={failed ? { reason: 'offline' } : null} />
    </div>
  )
}

const drop = lazyPart<FileDropProps & Words>(() => import('./FileDropView.js').then((chunk) => chunk.FileDropView), FileDropStand)
/** The drop's code, given the page's strings and formats. */
const WithWords = withRef(function FileDrop(props: FileDropProps, ref: ForwardedRef<HTMLDivElement>) {
  const accept = props.accept ?? toolAccept(props.tool)
  const preview = useObjectUrl(props.file && isPreviewable(props.file) ? props.file : null)
  return (
    <drop.Part
      {...props}
      rootRef={ref}
      messages={useCoreMessages()}
      format={useFormat()}
      accept={accept}
      maxBytes={props.maxBytes ?? props.maxSize ?? defaultMaxSize(accept)}
      preview={preview}
    />
  )
})
/**
 * The file picker every upload is built on (controlled: you hold the file). Drag a file onto
 * it, click it, or focus it and press Enter or Space to open the system picker. One file at
 * a time; a file of the wrong type, too large, or more than one file is refused before any
 * request, with the reason shown and announced (`role="alert"`). The chosen file shows its
 * name, size, a preview for images and a Remove button; while `uploading`, a byte progress
 * bar ("Uploading 1.2 MB of 3.4 MB") and Cancel.
 *
 * Classes: `ct-file-drop` and its parts `__input`, `__zone`, `__icon`, `__prompt`,
 * `__choose`, `__hint`, `__rejection`, `__file`, `__preview`, `__file-icon`, `__details`,
 * `__name`, `__size`, `__remove`, `__progress`, `__progress-bar`, `__progress-text`,
 * `__cancel`. `data-state`: `idle` | `dragging` | `selected` | `rejected` | `uploading` |
 * `disabled`, or `loading` while its code (react-dropzone, a chunk of its own, fetched when a
 * drop is first shown) comes: the area shows, locked, meanwhile; should that fetch fail offline
 * it says it waits for the connection, and comes once it is back.
 *
 * @example
 * const [file, setFile] = useState<File | null>(null)
 * <FileDrop tool="photo/enhance" file={file} onFileChange={setFile} />
 */
export const FileDrop = WithWords
/** Fetches the drop's code ahead of its first showing (a page about to show a file tool). */
export const loadFileDrop = drop.load
