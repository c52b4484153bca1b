'use client'
import { useEffect, useId, useRef, useState, type ForwardedRef } from 'react'
import { useDropzone, type Accept, type FileRejection } from 'react-dropzone'
import type { UploadProgress } from '../react/index.js'
import type { FileDropProps, FileDropState } from './FileDrop.js'
import type { Format } from './format.js'
import { acceptedTypeNames } from './acceptedTypes.js'
import { FileIcon } from './fileIcons.js'
import { CloseIcon, UploadIcon } from './icons.js'
import type { CoreMessages } from '../react/internal.js'

// `<FileDrop>`'s own code, with react-dropzone: a chunk of its own, fetched when a drop is first
// shown. Its strings and formats come from the wrapper, which has them anyway: a bundler that
// splits by module (esbuild) would otherwise load the strings with a page's hooks alone.

/** What the wrapper works out with the page's modules: strings, formats, the checks, the preview. */
export interface Words {
  messages: CoreMessages
  format: Format
  accept: Accept | undefined
  maxBytes: number
  /** The chosen picture's object URL, if it is one. */
  preview: string | undefined
  rootRef: ForwardedRef<HTMLDivElement>
}

const cx = (...names: (string | false | null | undefined)[]) => names.filter(Boolean).join(' ')

/** Why react-dropzone refused what was dropped, in the person's words. */
function rejectionOf(rejected: FileRejection[], count: number, maxBytes: number, messages: CoreMessages, format: Format) {
  if (count > 1) return messages.upload.rejected.count
  // react-dropzone lists a wrong type before a size: the type is the first thing to fix.
  const { file: refused, errors } = rejected[0]!
  return errors[0]?.code === 'file-too-large'
    ? messages.upload.rejected.size(refused.name, format.bytes(maxBytes))
    : messages.upload.rejected.type(refused.name)
}

/** react-dropzone over the drop area, with the reason for the last refusal and focus kept when a button goes. */
function useDrop(accept: Accept | undefined, maxBytes: number, locked: boolean, props: PartProps) {
  const { file, onFileChange, onCancel, messages, format } = props
  const [rejection, setRejection] = useState<string | null>(null)
  const dropzone = useDropzone({
    accept,
    maxSize: maxBytes,
    multiple: false,
    disabled: locked,
    // A native <button> opens the picker on Enter and Space by itself (see below).
    noKeyboard: true,
    onDrop(accepted, rejected) {
      const [chosen] = accepted
      if (chosen && accepted.length + rejected.length === 1) {
        setRejection(null)
        onFileChange(chosen)
      } else if (accepted.length + rejected.length > 0) {
        setRejection(rejectionOf(rejected, accepted.length + rejected.length, maxBytes, messages, format))
      }
    },
  })

  // Removing the file or cancelling the upload takes away the button that had focus: give it
  // to the drop area, once it is enabled again, so keyboard users are not sent to the page top.
  const refocus = useRef(false)
  const { rootRef } = dropzone
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
  return { ...dropzone, rejection, remove, cancel }
}

type Drop = ReturnType<typeof useDrop>

/** The view's props but the root's ref, for its parts. */
type PartProps = FileDropProps & Omit<Words, 'rootRef'>

interface ZoneProps {
  drop: Drop
  maxBytes: number
  locked: boolean
  props: PartProps
}

/** The area to drop on or click (a `<button>`), its hint and the reason for a refusal. */
function DropZone({ drop, maxBytes, locked, props }: ZoneProps) {
  const { id, invalid = false, 'aria-describedby': describedBy, messages, format } = props
  const ids = useId()
  const [promptId, chooseId, hintId, rejectionId] = ['prompt', 'choose', 'hint', 'rejection'].map((part) => `${ids}-${part}`)
  const { getRootProps, getInputProps, isDragActive, rejection } = drop
  const typeNames = props.accept ? acceptedTypeNames(props.accept) : []
  return (
    <>
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
        <span>{messages.upload.maxSize(format.bytes(maxBytes))}</span>
      </p>
      {/* Always in the page, so screen readers announce a reason the moment it appears. */}
      <div className="ct-file-drop__rejection" id={rejectionId} role="alert">
        {rejection}
      </div>
    </>
  )
}

/** The chosen file: a thumbnail for a picture, its name and size, and Remove while it may go. */
function ChosenFile({ file, onRemove, words: { messages, format, preview } }: { file: File; onRemove?: () => void; words: PartProps }) {
  // A picture the browser cannot decode (HEIC and the like) falls back to the file icon.
  const [brokenPreview, setBrokenPreview] = useState<string>()
  return (
    <div className="ct-file-drop__file">
      {preview && preview !== brokenPreview ? (
        // The name is right beside it: the thumbnail adds nothing for a screen reader.
        <img className="ct-file-drop__preview" src={preview} alt="" width={48} height={48} onError={() => setBrokenPreview(preview)} />
      ) : (
        <FileIcon className="ct-file-drop__file-icon" />
      )}
      <span className="ct-file-drop__details">
        <span className="ct-file-drop__name">{file.name}</span>{' '}
        <span className="ct-file-drop__size">{format.bytes(file.size)}</span>
      </span>
      {onRemove && (
        <button
          type="button"
          className="ct-button ct-button--quiet ct-file-drop__remove"
          aria-label={messages.upload.remove(file.name)}
          onClick={onRemove}
        >
          <CloseIcon />
        </button>
      )}
    </div>
  )
}

/** The bytes sent so far, and Cancel. */
function UploadBar({ progress, onCancel, words: { messages, format } }: { progress: UploadProgress | null; onCancel?: () => void; words: PartProps }) {
  // Bytes sent, once reported. A transport may report a little more than it promised: the bar never runs past full.
  const total = progress?.total ?? 0
  const sent = progress && total > 0 ? Math.min(progress.loaded, total) : undefined
  return (
    <div className="ct-file-drop__progress">
      {/* No value (an indeterminate bar) until the first report arrives. */}
      <progress
        className="ct-progress ct-file-drop__progress-bar"
        aria-label={messages.upload.progressLabel}
        value={sent}
        max={total || undefined}
      />{' '}
      <span className="ct-file-drop__progress-text">
        {sent === undefined ? messages.phase.submitting : messages.upload.uploading(format.bytes(sent), format.bytes(total))}
        {progress?.restarts ? ` ${messages.upload.restarted}` : null}
      </span>{' '}
      {onCancel && (
        <button type="button" className="ct-button ct-button--secondary ct-file-drop__cancel" onClick={onCancel}>
          {messages.upload.cancel}
        </button>
      )}
    </div>
  )
}

function stateOf(uploading: boolean, disabled: boolean, drop: Drop, file: File | null): FileDropState {
  if (uploading) return 'uploading'
  if (disabled) return 'disabled'
  if (drop.isDragActive) return 'dragging'
  if (drop.rejection) return 'rejected'
  return file ? 'selected' : 'idle'
}

/** `<FileDrop>` itself (see FileDrop.tsx for what it does). */
export function FileDropView({ rootRef, ...props }: FileDropProps & Words) {
  const { file, progress = null, uploading = false, onCancel, disabled = false, className, accept, maxBytes } = props
  const locked = disabled || uploading
  const drop = useDrop(accept, maxBytes, locked, props)
  return (
    <div ref={rootRef} className={cx('ct-file-drop', className)} data-state={stateOf(uploading, disabled, drop, file)}>
      <DropZone drop={drop} maxBytes={maxBytes} locked={locked} props={props} />
      {file && <ChosenFile file={file} onRemove={locked ? undefined : drop.remove} words={props} />}
      {uploading && <UploadBar progress={progress} onCancel={onCancel && drop.cancel} words={props} />}
    </div>
  )
}
