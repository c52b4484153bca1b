'use client'
import type { ForwardedRef, ReactNode } from 'react'
import type { Accept } from 'react-dropzone'
import { isBusy, useTool, useToolsContext, type FileToolId, type UseToolResult } from '../react/index.js'
import { loadChecks, loadSender, loadUploads } from '../react/internal.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { FieldError } from './FieldError.js'
import { FileDrop, FileDropStand, loadFileDrop } from './FileDrop.js'
import { issueFor } from './issues.js'
import { lazyPart } from './lazyPart.js'
import { submitAction } from './remedy.js'
import { useWaitOver } from './useWaitOver.js'
import { RunOutcome } from './RunOutcome.js'
import { useCoreMessages } from './useMessages.js'
import type { UploadFormParts, UploadFormViewProps } from './UploadFormView.js'
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
 * `__submit`, `__reason` (why the button is disabled), `__error`, `__result`. `data-state` holds the run's phase (`idle` | `submitting` |
 * `pending` | `running` | `succeeded` | `failed`).
 *
 * The form's own code is a chunk of its own, fetched with the drop's when a form is first shown
 * (a page with no file tool never loads it). Until it comes the form shows locked, with its fields,
 * its button and any wait; should that fetch fail offline it says it waits for the connection, and
 * comes once it is back.
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
  return props.state ? (
    <FormPart {...props} formRef={ref} state={props.state as unknown as UseToolResult<FileToolId>} />
  ) : (
    <OwnUploadForm {...props} formRef={ref} />
  )
})

interface OwnProps {
  formRef: ForwardedRef<HTMLFormElement>
  /** What the run produced, after the form's button. */
  outcome?: ReactNode
}

/** The form with a hook of its own, for when the caller passes none: it shows the run's outcome too. */
function OwnUploadForm<T extends FileToolId>(props: UploadFormProps<T> & OwnProps) {
  const state = useTool(props.tool) as unknown as UseToolResult<FileToolId>
  const outcome = <RunOutcome state={state} className="ct-upload-form__result" />
  return <FormPart {...props} state={state} outcome={outcome} />
}

/** The form's parts from the page, the same object for every form. */
const parts: UploadFormParts = { FileDrop, FieldError, ErrorNotice, WaitNotice }

/** The form while its code (and the drop's) comes: locked, with its fields, its button and any wait. */
function UploadFormStand(props: UploadFormViewProps & { failed: boolean }) {
  const { root, formRef, className, tool, state, children, submitLabel, outcome, messages, action, runFailed, failed } = props
  return (
    <form {...root} ref={formRef} className={className} data-state={state.phase} aria-busy noValidate onSubmit={(event) => event.preventDefault()}>
      <div className="ct-upload-form__drop">
        <FileDropStand tool={tool} file={null} onFileChange={() => undefined} failed={failed} />
      </div>
      {children != null && children !== false && (
        <fieldset className="ct-upload-form__fields" disabled>
          {children}
        </fieldset>
      )}
      {!failed && <WaitNotice waiting={state.waiting} className="ct-upload-form__wait" />}
      {runFailed && <ErrorNotice className="ct-upload-form__error" error={state.error} onRetry={state.retry} />}
      {action && (
        <div className="ct-upload-form__actions">
          <button type="submit" className="ct-button ct-upload-form__submit" disabled>
            {submitLabel ?? messages.runner[action]}
          </button>
        </div>
      )}
      {outcome}
    </form>
  )
}

const form = lazyPart<UploadFormViewProps>(() => {
  // The upload's own code (progress by XMLHttpRequest) comes beside the form's, not after a click on
  // Run: on a slow network that wait was a round trip. The form never waits on it.
  void loadUploads().catch(() => undefined)
  // What a click on Run needs (the input checks, the sender) comes in the same round trip, and the
  // form is ready once it is in: a click the moment Run can be pressed sends at once.
  const run = Promise.all([loadChecks(), loadSender()])
  return Promise.all([import('./UploadFormView.js'), loadFileDrop(), run]).then(([chunk]) => chunk.UploadFormView)
}, UploadFormStand)

/** What the page works out about the run for the form (its code is a chunk that imports none of it). */
function FormPart(props: Omit<UploadFormProps, 'state'> & OwnProps & { state: UseToolResult<FileToolId> }) {
  const { tool, state, options, accept, maxBytes, maxSize, children, submitLabel, onSubmitted, className, formRef, outcome, ...root } =
    props
  const { client } = useToolsContext()
  const { phase, error } = state
  // Once the cap that refused the run resets, the form runs again and its notice is done.
  const waitOver = useWaitOver(error, client.interpret)
  // A job's own failure belongs to its progress (`<JobProgress>`), not to the form that sent it.
  const runFailed = phase === 'failed' && error !== null && error.kind !== 'job-failed' && !waitOver
  return (
    <form.Part
      {...{ tool, state, options, accept, children, submitLabel, onSubmitted, formRef, outcome, root, runFailed, parts }}
      maxBytes={maxBytes ?? maxSize}
      className={cx('ct-upload-form', className)}
      messages={useCoreMessages()}
      action={submitAction(phase, error, client.interpret, waitOver)}
      fileInvalid={Boolean(runFailed && issueFor(error, 'file'))}
      inFlight={isBusy(phase)}
    />
  )
}

/** Fetches the form's code and the drop's ahead of a form's first showing (a page about to show a file tool). */
export const loadUploadForm = form.load
