'use client'
// The upload form's own code, a chunk of its own: only a page with a file tool needs it. It imports
// nothing of the kit but types: what it shares with the page (strings, the drop, the notices, what
// the run's state means for the form) comes in as props, so no shared chunk joins the first load.
import { useEffect, useId, useRef, useState, type ForwardedRef, type FormEvent, type ReactNode, type Ref } from 'react'
import type { Accept } from 'react-dropzone'
import type { FileToolId, ToolInput, UseToolResult } from '../react/index.js'
import type { CoreMessages } from '../react/internal.js'
import type { ErrorNotice } from './ErrorNotice.js'
import type { FieldError } from './FieldError.js'
import type { FileDrop } from './FileDrop.js'
import type { UploadInput } from './UploadForm.js'
import type { WaitNotice } from './WaitNotice.js'

/** The page's components the form is built from, handed in rather than imported. */
export interface UploadFormParts {
  FileDrop: typeof FileDrop
  FieldError: typeof FieldError
  ErrorNotice: typeof ErrorNotice
  WaitNotice: typeof WaitNotice
}

/** The form's props, with what the page worked out about the run (see `UploadForm`). */
export interface UploadFormViewProps {
  /** The form element's own attributes (`id`, `aria-*`, handlers…). */
  root: Record<string, unknown>
  formRef: ForwardedRef<HTMLFormElement>
  className: string
  tool: FileToolId
  state: UseToolResult<FileToolId>
  options?: Record<string, unknown>
  accept?: Accept
  maxBytes?: number
  children?: ReactNode
  submitLabel?: ReactNode
  onSubmitted?: (input: UploadInput) => void
  /** What the run produced, after the form's button. */
  outcome?: ReactNode
  messages: CoreMessages
  /** The button's action, or none (see `submitAction`). */
  action: 'submit' | 'runAgain' | undefined
  /** The last run failed for reasons of its own (not its job's), and its notice shows. */
  runFailed: boolean
  /** That failure was about the file. */
  fileInvalid: boolean
  /** A run is under way: the form is locked. */
  inFlight: boolean
  parts: UploadFormParts
}

/** What the form sent, told to `onSubmitted` once the service took it, or to focus the notice when it failed. */
function useSubmitted(phase: UseToolResult<FileToolId>['phase'], error: unknown, onSubmitted: UploadFormViewProps['onSubmitted']) {
  const submitRef = useRef<HTMLButtonElement>(null)
  const noticeRef = useRef<HTMLDivElement>(null)
  // The input of a submit from this form, until the service takes it or the run ends.
  const submitted = useRef<UploadInput | null>(null)

  // The latest callback, read when the phase moves: an inline function must not re-run the check.
  const onSubmittedRef = useRef(onSubmitted)
  useEffect(() => {
    onSubmittedRef.current = onSubmitted
  })

  useEffect(() => {
    const input = submitted.current
    if (!input || phase === 'submitting') return
    submitted.current = null
    if (phase === 'failed') noticeRef.current?.focus()
    else if (phase !== 'idle') onSubmittedRef.current?.(input)
  }, [phase, error])

  const send = (input: UploadInput) => {
    submitted.current = input
    // Keeps focus on a control that stays: fields and the drop area lock while the run is in flight.
    submitRef.current?.focus()
  }
  return { submitRef, noticeRef, send }
}

type DropPartProps = Pick<UploadFormViewProps, 'tool' | 'state' | 'accept' | 'maxBytes' | 'messages' | 'fileInvalid' | 'inFlight' | 'parts'> & {
  file: File | null
  onFileChange: (file: File | null) => void
  dropId: string
  /** The id of the line saying why the form is locked, while it is. */
  reasonId: string
}

/** The drop with the file's problem under it, and a word on the file a cut-off run needs again. */
function DropPart(props: DropPartProps) {
  const { tool, state, accept, maxBytes, messages, fileInvalid, inFlight, parts, file, onFileChange, dropId, reasonId } = props
  const { FileDrop, FieldError } = parts
  const { phase, error, uploadProgress, reset, needsFile, current } = state
  const fileErrorId = `${dropId}-error`
  const resumed = needsFile ? current : undefined
  return (
    <div className="ct-upload-form__drop">
      <FileDrop
        tool={tool}
        accept={accept}
        maxBytes={maxBytes}
        file={file}
        onFileChange={onFileChange}
        progress={uploadProgress}
        uploading={phase === 'submitting'}
        onCancel={reset}
        disabled={inFlight}
        id={dropId}
        aria-describedby={[fileInvalid && fileErrorId, inFlight && reasonId].filter(Boolean).join(' ') || undefined}
        invalid={fileInvalid}
      />
      <FieldError className="ct-upload-form__file-error" error={error} field="file" id={fileErrorId} />
      {resumed?.file && (
        <p className="ct-hint ct-upload-form__resume" role="status" id={`${reasonId}-resume`}>
          {messages.runner.needsFile(resumed.file.name)}
        </p>
      )}
    </div>
  )
}

interface SubmitButtonProps {
  buttonRef: Ref<HTMLButtonElement>
  noFile: boolean
  inFlight: boolean
  /** Why the button is disabled, while it is: shown beside it, unless it is the word on the file a cut-off run needs. */
  reason: string | undefined
  /** The id of the text saying why. */
  reasonId: string | undefined
  children: ReactNode
}

/**
 * The form's button: `disabled` with no file, `aria-disabled` (still focusable, so focus is not
 * lost) while a run is in flight; either way with the reason beside it.
 */
function SubmitButton({ buttonRef, noFile, inFlight, reason, reasonId, children }: SubmitButtonProps) {
  return (
    <div className="ct-upload-form__actions">
      <button
        ref={buttonRef}
        type="submit"
        className="ct-button ct-upload-form__submit"
        disabled={noFile}
        aria-disabled={inFlight || undefined}
        aria-describedby={reasonId}
      >
        {children}
      </button>
      {reason && reasonId && (
        <p className="ct-hint ct-upload-form__reason" id={reasonId}>
          {reason}
        </p>
      )}
    </div>
  )
}

/**
 * Why the form's button is disabled, if it is, and the id of the text that says so: a run under
 * way, or no file yet; a cut-off run's file is asked for by the word under the drop.
 */
function disabledReason(messages: CoreMessages, inFlight: boolean, file: File | null, resumed: boolean, id: string) {
  if (inFlight) return { reason: messages.disabled.running, reasonId: id }
  if (file) return { reason: undefined, reasonId: undefined }
  return resumed ? { reason: undefined, reasonId: `${id}-resume` } : { reason: messages.disabled.noFile, reasonId: id }
}

/** The upload form itself: the drop, the caller's fields, the wait, the failure's notice, the button. */
export function UploadFormView(props: UploadFormViewProps) {
  const { root, formRef, className, state, options, children, submitLabel, onSubmitted, outcome, messages, action, runFailed, inFlight } = props
  const { ErrorNotice, WaitNotice } = props.parts
  const [file, setFile] = useState<File | null>(null)
  const { phase, error, waiting, run, reset, retry, needsFile, current } = state
  // A run cut off mid-upload: finishing it sends its own options again, with the file chosen anew.
  const resumed = needsFile ? current : undefined
  const baseId = useId()
  const dropId = `${baseId}-file`
  const reasonId = `${baseId}-reason`
  const { submitRef, noticeRef, send } = useSubmitted(phase, error, onSubmitted)

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!file || inFlight || !action) return
    const input: UploadInput = { ...(resumed ? resumed.input : options), file }
    send(input)
    run(input as ToolInput<FileToolId>)
  }

  const onRetry = () => {
    if (file) send({ ...options, file })
    retry()
  }

  const onFileChange = (next: File | null) => {
    setFile(next)
    // The last failure was about the last attempt: a new file starts afresh.
    if (phase === 'failed') reset()
  }

  return (
    <form {...root} ref={formRef} className={className} data-state={phase} aria-busy={inFlight || undefined} noValidate onSubmit={onSubmit}>
      <DropPart {...props} file={file} onFileChange={onFileChange} dropId={dropId} reasonId={reasonId} />
      {children != null && children !== false && (
        <fieldset className="ct-upload-form__fields" disabled={inFlight} aria-describedby={inFlight ? reasonId : undefined}>
          {children}
        </fieldset>
      )}
      <WaitNotice waiting={waiting} className="ct-upload-form__wait" />
      {runFailed && (
        <ErrorNotice
          ref={noticeRef}
          className="ct-upload-form__error"
          error={error}
          onRetry={onRetry}
          fieldId={(field) => (field === 'file' ? dropId : undefined)}
        />
      )}
      {action && (
        <SubmitButton
          buttonRef={submitRef}
          noFile={!file}
          inFlight={inFlight}
          {...disabledReason(messages, inFlight, file, Boolean(resumed?.file), reasonId)}
        >
          {submitLabel ?? messages.runner[action]}
        </SubmitButton>
      )}
      {outcome}
    </form>
  )
}
