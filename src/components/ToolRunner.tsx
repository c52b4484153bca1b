'use client'
import { useEffect, useId, useRef, useState, type ChangeEvent, type ForwardedRef, type FormEvent } from 'react'
import {
  getTool,
  inputFields,
  isBusy,
  isToolsError,
  ToolsError,
  useTool,
  useToolsContext,
  type FileToolId,
  type InputField,
  type InputFieldSpec,
  type Tool,
  type ToolId,
  type ToolInput,
  type ToolResult,
  type UseToolResult,
  type ValidationIssue,
} from '../react/index.js'
import { cx, withRef, type RootProps } from './classNames.js'
import { ErrorNotice } from './ErrorNotice.js'
import { FieldError } from './FieldError.js'
import { submitAction } from './remedy.js'
import { RunOutcome } from './RunOutcome.js'
import { UploadForm, type UploadFormProps } from './UploadForm.js'
import { WaitNotice } from './WaitNotice.js'
import { useMessages } from './useMessages.js'

export interface ToolRunnerProps<T extends ToolId> extends RootProps {
  tool: T
  /** Values to prefill: named fields fill their inputs, any others the options field. */
  input?: Partial<ToolInput<T>>
  /** Called once per successful run. */
  onResult?: (result: ToolResult<T>) => void
  /** A file tool's accepted types, as `<UploadForm accept>`. Default: the catalogue row's. */
  accept?: UploadFormProps['accept']
  /** A file tool's largest file in bytes, as `<UploadForm maxSize>`. Default 20 MB, 200 MB for video. */
  maxSize?: number
}

/** The JSON field for body fields the spec leaves open; its text is kept among the values. */
const OPTIONS = 'options'

type Values = Record<string, string>

/** A control of the form: one of the tool's named fields, or the options field. */
interface Control {
  name: InputField | typeof OPTIONS
  type: InputFieldSpec['type'] | 'json'
  required: boolean
}

function initialValues(fields: InputFieldSpec[], input: Record<string, unknown>): Values {
  const values: Values = {}
  const rest: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(input)) {
    if (fields.some((field) => field.name === key)) {
      if (value !== undefined && !(value instanceof Blob)) values[key] = String(value)
    } else rest[key] = value
  }
  if (Object.keys(rest).length) values[OPTIONS] = JSON.stringify(rest, null, 2)
  return values
}

/** The input the form holds, or `undefined` when the options text is not a JSON object. */
function readForm(fields: InputFieldSpec[], values: Values): Record<string, unknown> | undefined {
  let options: unknown = {}
  if (values[OPTIONS]?.trim()) {
    try {
      options = JSON.parse(values[OPTIONS])
    } catch {
      return undefined
    }
  }
  if (!options || typeof options !== 'object' || Array.isArray(options)) return undefined
  const input: Record<string, unknown> = { ...options }
  for (const field of fields) {
    const raw = values[field.name]?.trim() ?? ''
    if (field.type === 'file' || raw === '') continue
    input[field.name] = field.type === 'number' ? Number(raw) : raw
  }
  return input
}

/**
 * The whole flow of one tool: its fields (or a file drop), inline validation, submit, the job's
 * progress, the result with its files, and errors in place. One button goes on from each state:
 * "Run", then "Run again" (with the fields as they are); after a failure, the notice's "Try
 * again" where repeating can help, the form's "Run" where other input can, none where neither can.
 * Fields come from the catalogue: the spec's named fields, plus a JSON options field for tools
 * whose body fields the spec leaves open.
 *
 * Classes: `ct-tool-runner`, parts `__header`, `__title`, `__description`, `__form`, `__fields`,
 * `__status`, `__actions`. `data-state` is the run's phase.
 *
 * @example
 * <ToolRunner tool="valuation/rent" input={{ city: 'Kazan' }} />
 */
export const ToolRunner = withRef(function ToolRunner<T extends ToolId>(
  { tool, input, onResult, accept, maxSize, className, ...root }: ToolRunnerProps<T>,
  ref: ForwardedRef<HTMLElement>,
) {
  const { client } = useToolsContext()
  const messages = useMessages()
  const hook = useTool(tool)
  const row: Tool = getTool(tool)
  const listing = 'listing' in row && row.listing
  const fields = inputFields(tool)
  const named = fields.filter((field) => field.type !== 'file')
  const isFileTool = row.body === 'multipart'
  const controls: Control[] = named.length ? named : [{ name: OPTIONS, type: 'json', required: false }]
  const baseId = useId()
  const idOf = (field: string) => `${baseId}-${field}`
  const listingHintId = idOf('listing-hint')

  const [values, setValues] = useState(() => initialValues(fields, (input ?? {}) as Record<string, unknown>))
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set())
  const [localIssues, setLocalIssues] = useState<ValidationIssue[]>([])
  const notice = useRef<HTMLDivElement>(null)

  const { phase, error, result, job } = hook
  const busy = isBusy(phase)
  const action = submitAction(phase, error, client.interpret)
  const formInput = readForm(fields, values)
  const optionsIssue: ValidationIssue = {
    field: OPTIONS,
    code: 'not-an-object',
    message: messages.validation['not-an-object'],
  }

  // Inline validation: the client's own check, shown for the fields a person has left.
  const leave = async (field: string) => {
    const visited = new Set(touched).add(field)
    setTouched(visited)
    const issues = formInput
      ? await client.validate(tool, formInput as ToolInput<T>)
      : [optionsIssue]
    setLocalIssues(issues.filter((issue) => visited.has(issue.field)))
  }

  const shownError =
    isToolsError(error) && error.kind === 'validation'
      ? error
      : localIssues.length
        ? new ToolsError('validation', '', { issues: localIssues })
        : null

  // Each result is reported once; focus goes to the notice when something failed (to the result in RunOutcome).
  const reported = useRef<unknown>(null)
  useEffect(() => {
    if (phase === 'succeeded' && result && reported.current !== result) {
      reported.current = result
      onResult?.(result)
    } else if (phase === 'failed' && error && reported.current !== error) {
      reported.current = error
      notice.current?.focus()
    }
  }, [phase, result, error, onResult])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    // Enter in a lone field submits even with the button gone: the notice's "Try again" is the way on.
    if (busy || !action) return
    setTouched(new Set([...fields.map((field) => field.name), OPTIONS]))
    setLocalIssues(formInput ? [] : [optionsIssue])
    if (formInput) hook.run(formInput as ToolInput<T>)
  }

  const fieldControls = (
    <div className="ct-tool-runner__fields">
      {controls.map(({ name, type, required }) => {
        const id = idOf(name)
        const hintId = name === OPTIONS ? `${id}-hint` : listing && !required ? listingHintId : undefined
        const common = {
          id,
          name,
          value: values[name] ?? '',
          required,
          disabled: busy,
          'aria-invalid': Boolean(shownError?.issues.some((issue) => issue.field === name)),
          'aria-describedby': cx(`${id}-error`, hintId),
          onBlur: () => void leave(name),
        }
        const change = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
          setValues({ ...values, [name]: event.target.value })
        return (
          <div className="ct-field" key={name}>
            <label className="ct-label" htmlFor={id}>
              {messages.fields[name]}
              {!required && <span className="ct-label__optional"> {messages.fields.optional}</span>}
            </label>
            {/* With no stylesheet the label sits above its field, not run into it; the theme's grid does it otherwise. */}
            <br />
            {type === 'json' ? (
              <textarea {...common} className="ct-input ct-input--code" rows={3} spellCheck={false} onChange={change} />
            ) : (
              <input
                {...common}
                className="ct-input"
                type={type === 'number' ? 'number' : 'text'}
                step={type === 'number' ? 'any' : undefined}
                inputMode={type === 'number' ? 'decimal' : undefined}
                onChange={change}
              />
            )}
            {name === OPTIONS && (
              <p className="ct-hint" id={hintId}>
                {messages.fields.optionsHint}
              </p>
            )}
            <FieldError error={shownError} field={name} id={`${id}-error`} />
          </div>
        )
      })}
      {listing && (
        <p className="ct-hint" id={listingHintId}>
          {messages.fields.listingHint}
        </p>
      )}
    </div>
  )

  // The upload form shows its own errors; the job's failure is told by its progress.
  const showNotice = error && !isFileTool && !(job && error.kind === 'job-failed')

  return (
    <section aria-labelledby={idOf('title')} {...root} ref={ref} className={cx('ct-tool-runner', className)} data-state={phase}>
      <header className="ct-tool-runner__header">
        <h2 className="ct-tool-runner__title" id={idOf('title')}>
          {messages.tools[tool].title}
        </h2>
        <p className="ct-tool-runner__description">{messages.tools[tool].description}</p>
      </header>

      {isFileTool ? (
        <UploadForm
          tool={tool as FileToolId}
          state={hook as unknown as UseToolResult<FileToolId>}
          options={formInput}
          accept={accept}
          maxSize={maxSize}
          className="ct-tool-runner__form"
        >
          {named.length > 0 && fieldControls}
        </UploadForm>
      ) : (
        <form className="ct-tool-runner__form" onSubmit={submit} noValidate>
          {fieldControls}
          {action && (
            <div className="ct-tool-runner__actions">
              <button type="submit" className="ct-button" disabled={busy}>
                {messages.runner[action]}
              </button>
            </div>
          )}
        </form>
      )}

      <div className="ct-tool-runner__status" role="status">
        {phase === 'submitting' && !isFileTool ? messages.phase.submitting : ''}
      </div>

      {/* The upload form shows a file tool's waits. */}
      {!isFileTool && <WaitNotice waiting={hook.waiting} className="ct-tool-runner__wait" />}
      {showNotice && <ErrorNotice ref={notice} error={error} onRetry={hook.retry} fieldId={idOf} />}
      <RunOutcome state={hook} className="ct-tool-runner__result" />
    </section>
  )
})
