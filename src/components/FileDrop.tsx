'use client'
import { useEffect, useId, useRef, useState, type ForwardedRef } from 'react'
import { useDropzone, type Accept } from 'react-dropzone'
import { type FileToolId, type UploadProgress } from '../react/index.js'
import { useObjectUrl } from '../react/internal.js'
import { cx, withRef } from './classNames.js'
import { acceptedTypeNames, defaultMaxSize, isPreviewable, toolAccept } from './fileAccept.js'
import { useFormat } from './format.js'
import { CloseIcon, FileIcon, UploadIcon } from './icons.js'
import { useMessages } from './useMessages.js'

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
 * `disabled`.
 *
 * @example
 * const [file, setFile] = useState<File | null>(null)
 * <FileDrop tool="photo/enhance" file={file} onFileChange={setFile} />
 */
export const FileDrop = withRef(function FileDrop({
  tool,
  accept: acceptProp,
  maxSize: maxSizeProp,
  file,
  onFileChange,
  progress = null,
  uploading = false,
  onCancel,
  disabled = false,
  id,
  'aria-describedby': describedBy,
  invalid = false,
  className,
}: FileDropProps, ref: ForwardedRef<HTMLDivElement>) {
  const messages = useMessages()
  const format = useFormat()
  const accept = acceptProp ?? toolAccept(tool)
  const maxSize = maxSizeProp ?? defaultMaxSize(accept)
  const locked = disabled || uploading
  const [rejection, setRejection] = useState<string | null>(null)
  const ids = useId()
  const promptId = `${ids}-prompt`
  const chooseId = `${ids}-choose`
  const hintId = `${ids}-hint`
  const rejectionId = `${ids}-rejection`

  const { getRootProps, getInputProps, isDragActive, rootRef } = useDropzone({
    accept,
    maxSize,
    multiple: false,
    disabled: locked,
    // A native <button> opens the picker on Enter and Space by itself (see below).
    noKeyboard: true,
    onDrop(accepted, rejected) {
      const [chosen] = accepted
      if (accepted.length + rejected.length > 1) setRejection(messages.upload.rejected.count)
      else if (chosen) {
        setRejection(null)
        onFileChange(chosen)
      } else if (rejected[0]) {
        // react-dropzone lists a wrong type before a size: the type is the first thing to fix.
        const { file: refused, errors } = rejected[0]
        setRejection(
          errors[0]?.code === 'file-too-large'
            ? messages.upload.rejected.size(refused.name, format.bytes(maxSize))
            : messages.upload.rejected.type(refused.name),
        )
      }
    },
  })

  // Removing the file or cancelling the upload takes away the button that had focus: give it
  // to the drop area, once it is enabled again, so keyboard users are not sent to the page top.
  const refocus = useRef(false)
  useEffect(() => {
    if (!refocus.current || locked) return
    refocus.current = false
    rootRef.current?.focus()
  }, [locked, file, rootRef])

  const remove = () => {
    refocus.current = true
    setRejection(null)
    onFileChange(null)
  }
  const cancel = () => {
    refocus.current = true
    onCancel?.()
  }

  const state: FileDropState = uploading
    ? 'uploading'
    : disabled
      ? 'disabled'
      : isDragActive
        ? 'dragging'
        : rejection
          ? 'rejected'
          : file
            ? 'selected'
            : 'idle'
  const typeNames = accept ? acceptedTypeNames(accept) : []
  const preview = useObjectUrl(file && isPreviewable(file) ? file : null)
  // A picture the browser cannot decode (HEIC and the like) falls back to the file icon.
  const [brokenPreview, setBrokenPreview] = useState<string>()
  // Bytes sent, once reported. A transport may report a little more than it promised: the bar never runs past full.
  const total = progress?.total ?? 0
  const sent = progress && total > 0 ? Math.min(progress.loaded, total) : undefined

  return (
    <div ref={ref} className={cx('ct-file-drop', className)} data-state={state}>
      <input
        {...getInputProps({
          className: 'ct-file-drop__input',
          // The drop area below is the control people use; this input only hosts the picker.
          'aria-hidden': true,
          'aria-label': messages.upload.choose,
        })}
      />
      <button
        {...getRootProps({
          type: 'button',
          // react-dropzone would mark the root `presentation`; it is the control here.
          role: 'button',
          id,
          className: 'ct-file-drop__zone',
          disabled: locked,
          // All of its visible text, so people who speak to their computer can say any of it (WCAG 2.5.3).
          'aria-labelledby': `${promptId} ${chooseId}`,
          'aria-describedby': cx(hintId, rejection && rejectionId, describedBy),
          'aria-invalid': invalid || Boolean(rejection) || undefined,
        })}
      >
        {/* The line breaks are for pages without the stylesheet, which lays the parts out itself. */}
        <UploadIcon className="ct-file-drop__icon" />
        <br />
        <span className="ct-file-drop__prompt" id={promptId}>
          {isDragActive ? messages.upload.dropActive : messages.upload.drop}
        </span>
        <br />
        <span className="ct-file-drop__choose" id={chooseId}>
          {messages.upload.choose}
        </span>
      </button>
      {/* Beside the button, not in it: a control's visible text must all be in its name (WCAG 2.5.3), and this is its description. */}
      <p className="ct-file-drop__hint" id={hintId}>
        {typeNames.length > 0 && <span>{messages.upload.accepted(format.list(typeNames, 'or'))}</span>}
        {typeNames.length > 0 && ' · '}
        <span>{messages.upload.maxSize(format.bytes(maxSize))}</span>
      </p>
      {/* Always in the page, so screen readers announce a reason the moment it appears. */}
      <div className="ct-file-drop__rejection" id={rejectionId} role="alert">
        {rejection}
      </div>
      {file && (
        <div className="ct-file-drop__file">
          {preview && preview !== brokenPreview ? (
            // The name is right beside it: the thumbnail adds nothing for a screen reader.
            <img
              className="ct-file-drop__preview"
              src={preview}
              alt=""
              width={48}
              height={48}
              onError={() => setBrokenPreview(preview)}
            />
          ) : (
            <FileIcon className="ct-file-drop__file-icon" />
          )}
          <span className="ct-file-drop__details">
            <span className="ct-file-drop__name">{file.name}</span>{' '}
            <span className="ct-file-drop__size">{format.bytes(file.size)}</span>
          </span>
          {!locked && (
            <button
              type="button"
              className="ct-button ct-button--quiet ct-file-drop__remove"
              aria-label={messages.upload.remove(file.name)}
              onClick={remove}
            >
              <CloseIcon />
            </button>
          )}
        </div>
      )}
      {uploading && (
        <div className="ct-file-drop__progress">
          {/* No value (an indeterminate bar) until the first report arrives. */}
          <progress
            className="ct-progress ct-file-drop__progress-bar"
            aria-label={messages.upload.progressLabel}
            value={sent}
            max={total || undefined}
          />{' '}
          <span className="ct-file-drop__progress-text">
            {sent === undefined
              ? messages.phase.submitting
              : messages.upload.uploading(format.bytes(sent), format.bytes(total))}
          </span>{' '}
          {onCancel && (
            <button type="button" className="ct-button ct-button--secondary ct-file-drop__cancel" onClick={cancel}>
              {messages.upload.cancel}
            </button>
          )}
        </div>
      )}
    </div>
  )
})
