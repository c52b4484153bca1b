'use client'
import { useEffect, useId, useRef, useState, type ForwardedRef, type FormEvent, type ReactNode, type Ref } from 'react'
import type { Accept } from 'react-dropzone'
import {
  isBusy,
  useTool,
  useToolsContext,
  type FileToolId,
  type ToolInput,
  type UseToolResult,
} from '../react/index.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { FieldError } from './FieldError.js'
import { FileDrop } from './FileDrop.js'
import { issueFor } from './issues.js'
import { submitAction } from './remedy.js'
import { useWaitOver } from './useWaitOver.js'
import { RunOutcome } from './RunOutcome.js'
import { useMessages } from './useMessages.js'
import { WaitNotice } from './WaitNotice.js'

/** What the form sends: the file, with the extra options beside it. */
export type UploadInput = { file: File } & Record<string, unknown>

export interface UploadFormProps<T extends FileToolId = FileToolId> extends Omit<RootProps<HTMLFormElement>, 'onSubmit'> {
  /** The file tool to run. Its catalogue row gives the accepted types and the file's part name. */
  tool: T
  /**
   * The hook result to drive, from `useTool(tool)` (or the tool's named hook): pass it to show
   * the run's progress and result yourself, beside the form. Omitted, the form runs its own and
   * follows it to the end: the job's progress, then the result and its files, in the form.
   */
  state?: UseToolResult<T>
  /** Extra options, sent as JSON in the `data` part beside the file. The file always wins over a `file` key. */
  options?: Record<string, unknown>
  /** Accepted types (react-dropzone's form). Default: the tool's `accept` from the catalogue. */
  accept?: Accept
  /** Largest file accepted, in bytes. Default 20 MB, or 200 MB for video (see `FileDrop`). */
  maxBytes?: number
  /** @deprecated The old name of `maxBytes`, still honoured when `maxBytes` is not given. */
  maxSize?: number
  /** Extra fields, rendered inside the form before the submit button and locked while a run is in flight. */
  children?: ReactNode
  /** The submit button's text. Default `messages.runner.submit`, `messages.runner.runAgain` after a success. */
  submitLabel?: ReactNode
  /**
   * Called once the service has taken the file: a deferred tool's job exists, or a synchronous
   * tool has answered. Not called when the run fails or is cancelled.
   */
  onSubmitted?: (input: UploadInput) => void
}

/**
 * A form for one file tool: pick or drop a file (`FileDrop`), add the `children` fields,
 * submit. While the file goes up it shows a byte progress bar and Cancel (which aborts the
 * upload and keeps the file, so the person can send it again). The form is locked while a
 * run is in flight; an error in sending or reading the job is shown in an `ErrorNotice` with
 * Try again, and focus moves to it when a submit fails.
 *
 * On its own it follows its job to the end, as `<ToolRunner>` does: the job's progress, then the
 * result and its files. Given a hook's `state`, it shows neither: compose it with `<JobProgress>`
 * and `<ResultView>` over that hook.
 *
 * The submit button is `disabled` with no file, and `aria-disabled` (still focusable, so
 * focus is not lost) while a run is in flight. It reads "Run again" after a success, and is
 * gone while a failure's notice offers "Try again" or when nothing the page offers can help.
 *
 * Classes: `ct-upload-form` and its parts `__drop`, `__file-error`, `__fields`, `__actions`,
 * `__submit`, `__error`, `__result`. `data-state` holds the run's phase (`idle` | `submitting` |
 * `pending` | `running` | `succeeded` | `failed`).
 *
 * @example
 * <UploadForm tool="photo/enhance" options={{ mode: 'auto' }} />
 * // or, showing the job yourself:
 * const enhance = usePhotoEnhance()
 * <UploadForm tool="photo/enhance" state={enhance} />
 * {enhance.job && <JobProgress job={enhance.job} onRetry={enhance.retry} />}
 */
export const UploadForm = withRef(function UploadForm<T extends FileToolId>(
  props: UploadFormProps<T>,
  ref: ForwardedRef<HTMLFormElement>,
) {
  return props.state ? <UploadFormView {...props} formRef={ref} state={props.state} /> : <OwnUploadForm {...props} formRef={ref} />
})

interface ViewProps {
  formRef: ForwardedRef<HTMLFormElement>
  /** What the run produced, after the form's button. */
  outcome?: ReactNode
}

/** The form with a hook of its own, for when the caller passes none: it shows the run's outcome too. */
function OwnUploadForm<T extends FileToolId>(props: UploadFormProps<T> & ViewProps) {
  const state = useTool(props.tool)
  const outcome = <RunOutcome state={state as unknown as UseToolResult<FileToolId>} className="ct-upload-form__result" />
  return <UploadFormView {...props} state={state} outcome={outcome} />
}

/** What the form sent, told to `onSubmitted` once the service took it, or to focus the notice when it failed. */
function useSubmitted(phase: UseToolResult<FileToolId>['phase'], error: unknown, onSubmitted: UploadFormProps['onSubmitted']) {
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

interface DropPartProps {
  tool: FileToolId
  state: UseToolResult<FileToolId>
  accept?: Accept
  maxBytes?: number
  file: File | null
  onFileChange: (file: File | null) => void
  /** Whether the last run failed (for reasons of its own, not its job's). */
  failed: boolean
  dropId: string
}

/** The drop with the file's problem under it, and a word on the file a cut-off run needs again. */
function DropPart({ tool, state, accept, maxBytes, file, onFileChange, failed, dropId }: DropPartProps) {
  const messages = useMessages()
  const { phase, error, uploadProgress, reset, needsFile, current } = state
  const fileErrorId = `${dropId}-error`
  const fileIssue = failed ? issueFor(error, 'file') : undefined
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
        disabled={isBusy(phase)}
        id={dropId}
        aria-describedby={fileIssue ? fileErrorId : undefined}
        invalid={Boolean(fileIssue)}
      />
      <FieldError className="ct-upload-form__file-error" error={error} field="file" id={fileErrorId} />
      {resumed?.file && (
        <p className="ct-hint ct-upload-form__resume" role="status">
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
  children: ReactNode
}

/**
 * The form's button: `disabled` with no file, `aria-disabled` (still focusable, so focus is not
 * lost) while a run is in flight.
 */
function SubmitButton({ buttonRef, noFile, inFlight, children }: SubmitButtonProps) {
  return (
    <div className="ct-upload-form__actions">
      <button
        ref={buttonRef}
        type="submit"
        className="ct-button ct-upload-form__submit"
        disabled={noFile}
        aria-disabled={inFlight || undefined}
      >
        {children}
      </button>
    </div>
  )
}

function UploadFormView<T extends FileToolId>(props: UploadFormProps<T> & ViewProps & { state: UseToolResult<T> }) {
  const { tool, state, options, accept, maxBytes, maxSize, children, submitLabel, onSubmitted, className, formRef, outcome, ...root } =
    props
  const messages = useMessages()
  const { client } = useToolsContext()
  const [file, setFile] = useState<File | null>(null)
  const { phase, error, waiting, run, reset, retry, needsFile, current } = state
  // A run cut off mid-upload: finishing it sends its own options again, with the file chosen anew.
  const resumed = needsFile ? current : undefined
  // A run under way locks the form until it ends.
  const inFlight = isBusy(phase)
  // Once the cap that refused the run resets, the form runs again and its notice is done.
  const waitOver = useWaitOver(error, client.interpret)
  const action = submitAction(phase, error, client.interpret, waitOver)
  // A job's own failure belongs to its progress (`<JobProgress>`), not to the form that sent it.
  const failed = phase === 'failed' && error !== null && error.kind !== 'job-failed' && !waitOver
  const dropId = `${useId()}-file`
  const { submitRef, noticeRef, send } = useSubmitted(phase, error, onSubmitted)

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!file || inFlight || !action) return
    const input: UploadInput = { ...(resumed ? resumed.input : options), file }
    send(input)
    run(input as ToolInput<T>)
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
    <form {...root} ref={formRef} className={cx('ct-upload-form', className)} data-state={phase} aria-busy={inFlight || undefined}
      noValidate onSubmit={onSubmit}>
      <DropPart
        tool={tool}
        state={state as unknown as UseToolResult<FileToolId>}
        accept={accept}
        maxBytes={maxBytes ?? maxSize}
        file={file}
        onFileChange={onFileChange}
        failed={failed}
        dropId={dropId}
      />
      {children != null && children !== false && (
        <fieldset className="ct-upload-form__fields" disabled={inFlight}>
          {children}
        </fieldset>
      )}
      <WaitNotice waiting={waiting} className="ct-upload-form__wait" />
      {failed && (
        <ErrorNotice
          ref={noticeRef}
          className="ct-upload-form__error"
          error={error}
          onRetry={onRetry}
          fieldId={(field) => (field === 'file' ? dropId : undefined)}
        />
      )}
      {action && (
        <SubmitButton buttonRef={submitRef} noFile={!file} inFlight={inFlight}>
          {submitLabel ?? messages.runner[action]}
        </SubmitButton>
      )}
      {outcome}
    </form>
  )
}
